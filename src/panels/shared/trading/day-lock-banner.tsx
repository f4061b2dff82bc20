import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTradeLimits } from '../../../api/trade/get-trade-limits';
import type { TradeKey } from '../../../api/trade/trade-key';
import { formatUsdDecimal as dollars } from '../../../ui/usd-decimal';

/**
 * Over a funded user's Order entry while the daily loss limit holds the key (issue 21): the loss, the
 * limit and when new risk is possible again — the next 00:00 UTC, shown in the trader's own clock.
 * Nothing while the key is not locked. The server refuses new risk either way; this says it first.
 */
export function DayLockBanner({ tradeKey, timeZone }: { tradeKey: TradeKey | null; /** Tests: the clock the time is shown in (default: the browser's). */ timeZone?: string }) {
  const { data } = useTradeLimits(tradeKey);
  if (!data?.locked || !data.lockedUntil || data.dailyLossLimit === null) return null;
  const until = new Date(data.lockedUntil).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(timeZone ? { timeZone } : {}) });
  return (
    <Alert color="red" variant="light" icon={<IconLock size={16} />} data-testid="day-lock-banner" p="xs">
      {`Daily loss limit reached: −$${dollars(data.lossToday)} of $${dollars(data.dailyLossLimit)} today. Only reducing orders and closes until ${until} (00:00 UTC).`}
    </Alert>
  );
}
