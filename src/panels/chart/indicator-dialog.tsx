import { Button, ColorInput, Group, Modal, NumberInput, Select, Stack } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import {
  BOLLINGER_STD_DEV,
  INDICATOR_COLORS,
  INDICATOR_KIND_LABELS,
  INDICATOR_PERIOD,
  PRICE_SOURCE_LABELS,
  PRICE_SOURCES,
  draftOf,
  validateIndicatorDraft,
  type ChartIndicator,
  type IndicatorDraft,
} from '../../state/chart-indicators';

export interface IndicatorDialogProps {
  /** The indicator being edited, or a new one (with its defaults) being added. */
  indicator: ChartIndicator;
  isNew: boolean;
  onSave: (indicator: ChartIndicator) => void;
  onRemove: () => void;
  onClose: () => void;
}

/**
 * Adds or edits one indicator: period (bars), band width (Bollinger), price source and colour.
 * Each field says what is wrong with it as the user types; Save does nothing until all are valid.
 */
export function IndicatorDialog({ indicator, isNew, onSave, onRemove, onClose }: IndicatorDialogProps) {
  const [draft, setDraft] = useState<IndicatorDraft>(() => draftOf(indicator));
  const result = validateIndicatorDraft(indicator.id, draft);
  const errors = result.errors ?? {};
  const set = <K extends keyof IndicatorDraft>(key: K, value: IndicatorDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (result.indicator) onSave(result.indicator);
  };

  return (
    <Modal opened onClose={onClose} title={INDICATOR_KIND_LABELS[indicator.kind]} centered size="sm">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {draft.kind !== 'vwap' ? (
            <NumberInput
              label="Period"
              description="Bars in the window"
              value={draft.period}
              onChange={(v) => set('period', v)}
              min={INDICATOR_PERIOD.min}
              max={INDICATOR_PERIOD.max}
              clampBehavior="none"
              allowNegative={false}
              allowDecimal={false}
              error={errors.period}
              data-autofocus
            />
          ) : null}
          {draft.kind === 'bollinger' ? (
            <NumberInput
              label="Band width"
              description="Standard deviations from the average"
              value={draft.stdDev}
              onChange={(v) => set('stdDev', v)}
              min={BOLLINGER_STD_DEV.min}
              max={BOLLINGER_STD_DEV.max}
              step={0.1}
              decimalScale={2}
              clampBehavior="none"
              allowNegative={false}
              error={errors.stdDev}
            />
          ) : null}
          <Select
            label="Source"
            data={PRICE_SOURCES.map((s) => ({ value: s, label: PRICE_SOURCE_LABELS[s] }))}
            value={draft.source}
            onChange={(v) => v && set('source', v as IndicatorDraft['source'])}
            allowDeselect={false}
          />
          <ColorInput
            label="Colour"
            format="hex"
            swatches={[...INDICATOR_COLORS]}
            swatchesPerRow={8}
            value={draft.color}
            onChange={(v) => set('color', v)}
            withEyeDropper={false}
            error={errors.color}
          />
          <Group justify="space-between" mt="xs">
            {isNew ? <span /> : (
              <Button variant="subtle" color="red" onClick={onRemove}>
                Remove
              </Button>
            )}
            <Group gap="xs">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit">{isNew ? 'Add' : 'Save'}</Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
