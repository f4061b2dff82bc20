import { ActionIcon, Tooltip } from '@mantine/core';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import type { ExchangeId } from '../../api/contracts/common';
import { isFavoritePair } from '../../state/favorites';
import { useFavoritePairs } from './use-favorite-pairs';

/** The star beside a chart's pair: adds it to or removes it from the favourites (SPEC §4). */
export function FavoritePairToggle({ exchange, symbol }: { exchange: ExchangeId; symbol: string }) {
  const { favorites, loaded, toggle } = useFavoritePairs();
  const on = isFavoritePair(favorites, exchange, symbol);
  const label = on ? 'Remove from favourites' : 'Add to favourites';
  return (
    <Tooltip label={label} withinPortal={false}>
      <ActionIcon
        variant="subtle"
        size="sm"
        color={on ? 'yellow' : 'gray'}
        aria-label={label}
        aria-pressed={on}
        disabled={!loaded}
        onClick={() => toggle({ exchange, symbol })}
      >
        {on ? <IconStarFilled size={16} /> : <IconStar size={16} />}
      </ActionIcon>
    </Tooltip>
  );
}
