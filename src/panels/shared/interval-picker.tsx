import { ActionIcon, Button, Group, Select, Tooltip } from '@mantine/core';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { useSnapshot } from 'valtio';
import { CANDLE_INTERVALS, type CandleInterval } from '../../api/contracts/market';
import { favoriteIntervalList, toggleFavoriteInterval, userSettings } from '../../state/user-settings';

/**
 * The chart interval: the user's favourite intervals as one-click buttons (SPEC §9 defaults 1m–30m),
 * and every interval in a list with the favourites first. The star beside the list adds the chosen
 * interval to the favourites or removes it (SPEC §4: favourite interval toggles per interval).
 */
export function IntervalPicker({ value, onChange }: { value: CandleInterval; onChange: (interval: CandleInterval) => void }) {
  const { favoriteIntervals } = useSnapshot(userSettings);
  const favorites = favoriteIntervalList(favoriteIntervals);
  const others = CANDLE_INTERVALS.filter((i) => !favoriteIntervals[i]);
  const isFavorite = favoriteIntervals[value];
  const starLabel = isFavorite ? `Remove ${value} from favourite intervals` : `Add ${value} to favourite intervals`;
  return (
    <Group gap={2} wrap="nowrap">
      <Group gap={0} wrap="nowrap" visibleFrom="xs" role="group" aria-label="Favourite intervals">
        {favorites.map((interval) => (
          <Button
            key={interval}
            size="compact-xs"
            variant={interval === value ? 'light' : 'subtle'}
            color={interval === value ? undefined : 'gray'}
            aria-pressed={interval === value}
            onClick={() => onChange(interval)}
          >
            {interval}
          </Button>
        ))}
      </Group>
      <Select
        aria-label="Interval"
        size="xs"
        w={70}
        data={[
          ...(favorites.length ? [{ group: 'Favourites', items: favorites }] : []),
          ...(others.length ? [{ group: 'More', items: others }] : []),
        ]}
        value={value}
        allowDeselect={false}
        maxDropdownHeight={320}
        comboboxProps={{ width: 120 }}
        onChange={(next) => {
          if (next) onChange(next as CandleInterval);
        }}
      />
      <Tooltip label={starLabel} withinPortal={false}>
        <ActionIcon
          variant="subtle"
          size="sm"
          color={isFavorite ? 'yellow' : 'gray'}
          aria-label={starLabel}
          aria-pressed={isFavorite}
          onClick={() => toggleFavoriteInterval(value)}
        >
          {isFavorite ? <IconStarFilled size={14} /> : <IconStar size={14} />}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
