import { useMutation, useQueryClient } from '@tanstack/react-query';
import { patchTradeSettingsBodySchema, tradeSettingsSchema, type PatchTradeSettingsBody, type TradeSettings } from '../contracts/funded-users';
import { http } from '../client';
import { tradeSettingsQueryKey } from './get-trade-settings';

/** `PATCH /v1/users/settings/trade` (admin): `userId` plus the fields to replace. */
export async function updateTradeSettings(body: PatchTradeSettingsBody): Promise<TradeSettings> {
  const { data } = await http.patch<unknown>('/v1/users/settings/trade', patchTradeSettingsBodySchema.parse(body));
  return tradeSettingsSchema.parse(data);
}

export function useUpdateTradeSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTradeSettings,
    onSuccess: (settings) => queryClient.setQueryData(tradeSettingsQueryKey(settings.userId), settings),
    meta: { errorMessage: 'Unable to update trade settings.' },
  });
}
