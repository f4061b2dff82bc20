import { useEffect } from 'react';
import { dec, toNumber } from '../../../api/contracts/decimal';
import { useSymbolSettings } from '../../../api/trade/get-symbol-settings';
import { usePositions } from '../../../api/trade/list-positions';
import type { TradeKey } from '../../../api/trade/trade-key';

/**
 * The account's own leverage and margin mode for the pair (issue 22), read from the exchange with or
 * without a position (the open position's while that read is on its way), which the form follows: the
 * preview's margin and liquidation are the account's — not a remembered 10× Isolated.
 */
export function useAccountLeverage(tradeKey: TradeKey | null, symbol: string, follow: (leverage: number) => void) {
  const positions = usePositions(tradeKey);
  const symbolSettings = useSymbolSettings(tradeKey, symbol);
  const held = positions.data?.find((x) => x.symbol === symbol);
  const onAccount = symbolSettings.data ?? (held ? { leverage: held.leverage, marginMode: held.marginMode === 'ISOLATED' ? ('ISOLATED' as const) : ('CROSS' as const) } : null);
  const accountLeverage = onAccount ? toNumber(dec(onAccount.leverage)) : null;
  useEffect(() => {
    if (accountLeverage !== null && accountLeverage > 0) follow(accountLeverage);
  }, [accountLeverage]);
  return { onAccount, accountMode: onAccount?.marginMode ?? null };
}
