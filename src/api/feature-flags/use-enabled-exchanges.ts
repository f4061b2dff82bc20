import { enabledExchangeIds, type ExchangeId } from '../contracts';
import { useFeatureFlagMap } from './get-feature-flag-map';

/** The exchanges the user may pick right now (binance always; the others behind their flags). */
export function useEnabledExchanges(): ExchangeId[] {
  return enabledExchangeIds(useFeatureFlagMap().data);
}
