import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { EXCHANGE_DISPLAY_NAMES, type ExchangeId } from '../../api/contracts/common';
import type { FeedStatus } from './chart-feed';

export interface ChartStatusProps {
  exchange: ExchangeId;
  symbol: string;
  status: FeedStatus;
  /** The engine is not there yet (and has not failed). */
  starting: boolean;
  /** The engine could not start (no WebGL). */
  failure: Error | null;
  onRetry: () => void;
}

/**
 * The chart's own loading spinner and its one empty-or-error message with Retry, in the middle of
 * the chart (the engine draws no "No data" of its own: `emptyText: ''`).
 */
export function ChartStatus({ exchange, symbol, status, starting, failure, onRetry }: ChartStatusProps) {
  const loading = status === 'loading' || starting;
  return (
    <>
      {loading ? (
        <Center pos="absolute" inset={0} style={{ pointerEvents: 'none' }} data-testid="chart-loading">
          <Loader size="sm" aria-label={`Loading ${symbol}`} />
        </Center>
      ) : null}
      {failure || status === 'error' || status === 'empty' ? (
        <Center pos="absolute" inset={0} style={{ pointerEvents: 'none' }} data-testid="chart-message">
          <Stack gap={8} align="center" style={{ pointerEvents: 'auto' }}>
            <Text size="sm" c="dimmed">
              {failure
                ? 'The chart could not start in this browser (WebGL is unavailable).'
                : status === 'empty'
                  ? `No candles for ${symbol} on ${EXCHANGE_DISPLAY_NAMES[exchange]} yet.`
                  : `Candles for ${symbol} could not be loaded.`}
            </Text>
            {failure ? null : (
              <Button size="compact-sm" variant="default" onClick={onRetry}>
                Retry
              </Button>
            )}
          </Stack>
        </Center>
      ) : null}
    </>
  );
}
