import { Chip, Group, MultiSelect, NumberInput, Switch, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { EXCHANGE_DISPLAY_NAMES, type ExchangeId } from '../../api/contracts/common';
import { SCANNER_TEXT_MAX, type ScannerView } from '../../api/contracts/scanner';

export interface ScannerFiltersProps {
  view: ScannerView;
  onChange: (patch: Partial<ScannerView>) => void;
  /** The exchanges the user may pick (flags). */
  enabled: readonly ExchangeId[];
  /** Quote currencies present in the rows. */
  quotes: readonly string[];
}

const numberOrNull = (v: string | number): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Filters: exchanges (none ticked = all), quote currencies, minimum 24 h volume, 24 h change
 * range, text, and favourites first.
 */
export function ScannerFilters({ view, onChange, enabled, quotes }: ScannerFiltersProps) {
  const quoteOptions = [...new Set([...quotes, ...view.quotes])].sort();
  return (
    <Group gap={6} wrap="wrap" align="center">
      <TextInput
        size="xs"
        w={120}
        aria-label="Search pairs"
        placeholder="Search pair"
        leftSection={<IconSearch size={12} />}
        value={view.text}
        maxLength={SCANNER_TEXT_MAX}
        onChange={(e) => onChange({ text: e.currentTarget.value })}
      />
      <Chip.Group multiple value={view.exchanges} onChange={(value) => onChange({ exchanges: value as ExchangeId[] })}>
        <Group gap={4} role="group" aria-label="Exchanges">
          {enabled.map((id) => (
            <Chip key={id} value={id} size="xs" variant="outline">
              {EXCHANGE_DISPLAY_NAMES[id]}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      <MultiSelect
        size="xs"
        w={140}
        aria-label="Quote currencies"
        placeholder={view.quotes.length ? undefined : 'All quotes'}
        data={quoteOptions}
        value={view.quotes}
        onChange={(value) => onChange({ quotes: value })}
        clearable
        comboboxProps={{ withinPortal: false }}
      />
      <NumberInput
        size="xs"
        w={116}
        aria-label="Minimum 24h volume"
        placeholder="Min volume"
        min={0}
        step={1_000_000}
        thousandSeparator=","
        hideControls
        value={view.minVolume ?? ''}
        onChange={(v) => onChange({ minVolume: numberOrNull(v) })}
      />
      <Group gap={2} wrap="nowrap">
        <NumberInput
          size="xs"
          w={78}
          aria-label="Minimum 24h change %"
          placeholder="Chg ≥ %"
          hideControls
          decimalScale={2}
          value={view.minChange ?? ''}
          onChange={(v) => onChange({ minChange: numberOrNull(v) })}
        />
        <NumberInput
          size="xs"
          w={78}
          aria-label="Maximum 24h change %"
          placeholder="Chg ≤ %"
          hideControls
          decimalScale={2}
          value={view.maxChange ?? ''}
          onChange={(v) => onChange({ maxChange: numberOrNull(v) })}
        />
      </Group>
      <Switch size="xs" label="Favourites first" checked={view.favoritesFirst} onChange={(e) => onChange({ favoritesFirst: e.currentTarget.checked })} />
    </Group>
  );
}
