import { ActionIcon, Group, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useSnapshot } from 'valtio';
import { EXCHANGE_DISPLAY_NAMES, EXCHANGE_IDS, type ExchangeId } from '../../api/contracts/common';
import type { FavoritePair } from '../../api/contracts/settings';
import { chartLinks, showPairInActiveChart } from '../../state/chart-links';
import { PanelMessage } from '../shared/panel-message';
import type { PanelProps } from '../shared/panel-props';
import { useFavoritePairs } from '../shared/use-favorite-pairs';
import { useMarketTickers } from '../shared/use-market-tickers';
import { useFavoritesPruning } from './use-favorites-pruning';
import { usePairListings } from './use-pair-listings';
import classes from './favorites-panel.module.css';

const price = new Intl.NumberFormat('en-US', { maximumFractionDigits: 8 });

/**
 * The user's favourite pairs (server-side, so they follow the user), grouped by exchange. A click
 * shows the pair in the active chart and its linked group; × removes it. Pairs an exchange no longer
 * lists are pruned (SPEC §4).
 */
export function FavoritesPanel(_props: PanelProps) {
  const { favorites, loaded, remove } = useFavoritePairs();
  const { charts, activeChartId } = useSnapshot(chartLinks);
  useFavoritesPruning(favorites, usePairListings());
  const active = activeChartId ? charts[activeChartId] : undefined;
  const hasChart = Object.keys(charts).length > 0;

  if (!loaded) return <PanelMessage title="Loading favourites…" />;
  if (favorites.length === 0) {
    return (
      <PanelMessage title="No favourite pairs yet" testId="favorites-empty">
        Star a pair in a chart&apos;s header to keep it here.
      </PanelMessage>
    );
  }

  // The active chart's exchange first: those are the pairs one is most likely to switch between.
  const order = [...EXCHANGE_IDS].sort((a, b) => Number(b === active?.exchange) - Number(a === active?.exchange));
  const groups = order.map((exchange) => ({ exchange, pairs: favorites.filter((f) => f.exchange === exchange) })).filter((g) => g.pairs.length);

  return (
    <ScrollArea h="100%" type="auto" data-testid="favorites-panel">
      <Stack gap="xs" p={6}>
        {hasChart ? null : (
          <Text size="xs" c="dimmed">
            Open a chart to show a pair in it.
          </Text>
        )}
        {groups.map((group) => (
          <FavoriteGroup
            key={group.exchange}
            exchange={group.exchange}
            pairs={group.pairs}
            activeSymbol={active?.exchange === group.exchange ? active.symbol : null}
            canShow={hasChart}
            onRemove={remove}
          />
        ))}
      </Stack>
    </ScrollArea>
  );
}

interface FavoriteGroupProps {
  exchange: ExchangeId;
  pairs: FavoritePair[];
  activeSymbol: string | null;
  canShow: boolean;
  onRemove: (pair: FavoritePair) => void;
}

function FavoriteGroup({ exchange, pairs, activeSymbol, canShow, onRemove }: FavoriteGroupProps) {
  const { tickers } = useMarketTickers(exchange);
  return (
    <Stack gap={0} role="list" aria-label={`${EXCHANGE_DISPLAY_NAMES[exchange]} favourites`}>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" px={6} pb={2}>
        {EXCHANGE_DISPLAY_NAMES[exchange]}
      </Text>
      {pairs.map((pair) => {
        const ticker = tickers.get(pair.symbol);
        const up = (ticker?.changePercent ?? 0) >= 0;
        return (
          <Group key={pair.symbol} gap={4} wrap="nowrap" role="listitem" className={classes.row} data-active={pair.symbol === activeSymbol || undefined}>
            <UnstyledButton
              className={classes.pair}
              disabled={!canShow}
              onClick={() => showPairInActiveChart(exchange, pair.symbol)}
              aria-label={`Show ${pair.symbol} on ${EXCHANGE_DISPLAY_NAMES[exchange]} in the active chart`}
            >
              <Text size="sm" fw={500} truncate>
                {pair.symbol}
              </Text>
              {ticker ? (
                <Group gap={6} wrap="nowrap" className={classes.quote}>
                  <Text size="xs">{price.format(ticker.lastPrice)}</Text>
                  <Text size="xs" c={up ? 'teal' : 'red'} w={58} ta="right">
                    {up ? '+' : ''}
                    {ticker.changePercent.toFixed(2)}%
                  </Text>
                </Group>
              ) : null}
            </UnstyledButton>
            <Tooltip label="Remove from favourites" withinPortal={false}>
              <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Remove ${pair.symbol} from favourites`} onClick={() => onRemove(pair)}>
                <IconX size={14} />
              </ActionIcon>
            </Tooltip>
          </Group>
        );
      })}
    </Stack>
  );
}
