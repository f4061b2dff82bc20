import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createTransactionBodySchema, transactionSchema, type CreateTransactionBody, type Transaction } from '../contracts/funded-users';
import { http } from '../client';
import { ownTransactionsQueryKey } from '../api-keys/list-own-transactions';
import { transactionsQueryKey } from './list-transactions';

/** `POST /v1/users/transactions`: on one of your keys, or (admin) on `userId`'s key. */
export async function createTransaction(body: CreateTransactionBody): Promise<Transaction> {
  const { data } = await http.post<unknown>('/v1/users/transactions', createTransactionBodySchema.parse(body));
  return transactionSchema.parse(data);
}

/** SPEC §7: after a transaction is recorded, the transactions list refreshes (both views of it). */
export function useCreateTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTransaction,
    onSuccess: (tx) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: transactionsQueryKey(tx.userId, tx.apiKeyId) }),
        queryClient.invalidateQueries({ queryKey: ownTransactionsQueryKey(tx.apiKeyId) }),
      ]),
    meta: { errorMessage: 'Unable to add new transaction.' },
  });
}
