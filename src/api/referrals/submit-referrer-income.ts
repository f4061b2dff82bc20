import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponseSchema, type MessageResponse, type Network } from '../contracts/common';
import { incomeSubmissionSchema, type IncomeSubmission } from '../contracts/referrals';
import { http } from '../client';

export interface SubmitIncomeVariables {
  body: IncomeSubmission;
  /** The page's network filter; sent as `?testnet=` so the body stays SPEC §3's. */
  network: Network;
}

/** `PATCH /v1/referrals/user` (admin): a referrer's monthly income; answers `{ message }`. */
export async function submitReferrerIncome({ body, network }: SubmitIncomeVariables): Promise<MessageResponse> {
  incomeSubmissionSchema.parse(body);
  const { data } = await http.patch<unknown>('/v1/referrals/user', body, { params: { testnet: String(network === 'TESTNET') } });
  return messageResponseSchema.parse(data);
}

/** On success every referral query (this referrer's volume and income, the overview) is refetched (SPEC §4). */
export function useSubmitReferrerIncome() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitReferrerIncome,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['referrals'] }),
    meta: { errorMessage: 'Unable to submit income' },
  });
}
