import { z } from 'zod';

/**
 * Candle intervals the product offers (SPEC §9), in ascending duration. `1M` is one month and
 * differs from `1m` (one minute) only by case, so compare intervals case-sensitively.
 */
export const CANDLE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
export const candleIntervalSchema = z.enum(CANDLE_INTERVALS);
export type CandleInterval = z.infer<typeof candleIntervalSchema>;
