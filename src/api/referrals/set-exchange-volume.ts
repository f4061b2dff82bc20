import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponseSchema, type MessageResponse } from '../contracts/common';
import { exchangeVolumeBodySchema, type ExchangeVolumeBody } from '../contracts/referrals';
import { http } from '../client';

/** `PATCH /v1/referrals/volume` (admin): the exchange's monthly totals (one month, or many from an import). */
export async function setExchangeVolume(body: ExchangeVolumeBody): Promise<MessageResponse> {
  exchangeVolumeBodySchema.parse(body);
  const { data } = await http.patch<unknown>('/v1/referrals/volume', body);
  return messageResponseSchema.parse(data);
}

export function useSetExchangeVolume() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setExchangeVolume,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['referrals'] }),
    meta: { errorMessage: 'Unable to save exchange totals' },
  });
}
