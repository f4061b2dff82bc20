import { and, eq } from 'drizzle-orm';
import type { PageMeta, Role } from '../../src/api/contracts/common';
import type { CreateTransactionBody, Transaction, TransactionsQuery } from '../../src/api/contracts/funded-users';
import { dec, str } from '../../src/api/contracts/decimal';
import type { Db } from '../db/client';
import { transactions, type TransactionRow } from '../db/schema-api-keys';
import { forbidden } from '../lib/http-error';
import { getApiKey } from './api-keys';
import { keysetPage } from './keyset-page';

export function toTransactionDto(row: TransactionRow): Transaction {
  return {
    id: row.id,
    userId: row.userId,
    apiKeyId: row.apiKeyId,
    type: row.type,
    amount: str(dec(row.amount)),
    currency: row.currency,
    note: row.note,
    occurredAt: row.occurredAt.toISOString(),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * `POST /v1/users/transactions`: users record on their own keys; admins on anyone's (`userId`
 * names the owner). 404 when the key is not the owner's.
 */
export async function createTransaction(db: Db, actor: { id: string; role: Role }, body: CreateTransactionBody): Promise<TransactionRow> {
  const ownerId = body.userId ?? actor.id;
  if (ownerId !== actor.id && actor.role !== 'admin') throw forbidden('You may record transactions only on your own API keys');
  const key = await getApiKey(db, ownerId, body.apiKeyId);
  const [row] = await db
    .insert(transactions)
    .values({
      userId: ownerId,
      apiKeyId: key.id,
      type: body.type,
      amount: body.amount,
      currency: body.currency,
      note: body.note || null,
      occurredAt: new Date(body.occurredAt),
      createdBy: actor.id,
    })
    .returning();
  return row;
}

/** The transactions of one key of `ownerId`, newest first (by when they happened), cursor-paged. */
export async function listTransactions(db: Db, ownerId: string, apiKeyId: string, q: TransactionsQuery): Promise<{ data: Transaction[]; meta: PageMeta }> {
  await getApiKey(db, ownerId, apiKeyId);
  const page = await keysetPage<TransactionRow>({
    cursor: q.cursor,
    limit: q.limit,
    time: transactions.occurredAt,
    id: transactions.id,
    position: (row) => ({ time: row.occurredAt, id: row.id }),
    run: (beyond, order, limit) =>
      db
        .select()
        .from(transactions)
        .where(and(eq(transactions.apiKeyId, apiKeyId), eq(transactions.userId, ownerId), ...(beyond ? [beyond] : [])))
        .orderBy(...order)
        .limit(limit),
  });
  return { data: page.data.map(toTransactionDto), meta: page.meta };
}
