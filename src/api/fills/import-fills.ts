import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FILLS_IMPORT_MAX, importFillsBodySchema, importFillsResultSchema, type FillInput, type ImportFillsResult } from '../contracts/trading-volume';
import { http } from '../client';

/**
 * `POST /v1/fills/import` (admin), in requests of at most FILLS_IMPORT_MAX fills. Each request is
 * all-or-nothing on the server; a failure stops before the next one and reports what went in.
 */
export async function importFills(fills: FillInput[], onProgress?: (done: number) => void): Promise<ImportFillsResult> {
  const total: ImportFillsResult = { inserted: 0, duplicates: 0 };
  for (let i = 0; i < fills.length; i += FILLS_IMPORT_MAX) {
    const body = { fills: fills.slice(i, i + FILLS_IMPORT_MAX) };
    importFillsBodySchema.parse(body);
    const { data } = await http.post<unknown>('/v1/fills/import', body);
    const result = importFillsResultSchema.parse(data);
    total.inserted += result.inserted;
    total.duplicates += result.duplicates;
    onProgress?.(Math.min(fills.length, i + FILLS_IMPORT_MAX));
  }
  return total;
}

/** Imported fills change trading volume and referral volume. */
export function useImportFills() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fills: FillInput[]) => importFills(fills),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['trading-volume'] });
      await queryClient.invalidateQueries({ queryKey: ['referrals'] });
    },
    meta: { errorMessage: 'Unable to import fills' },
  });
}
