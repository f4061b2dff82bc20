import { ActionIcon, Group, Loader, NumberInput, Pill, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { z } from 'zod';
import type { PatchServerSettingsBody } from '../../api/contracts/settings';
import { useServerSettings } from '../../api/settings/get-server-settings';
import { useUpdateServerSettings } from '../../api/settings/update-server-settings';

export type QuickPickField = 'riskOptions' | 'stopLossOptions';

/** The contract allows at most 20 values per list (src/api/contracts/settings.ts). */
export const QUICK_PICK_MAX = 20;

export const quickPickValueSchema = z
  .number({ error: 'Enter a percentage' })
  .gt(0, 'Must be above 0 %')
  .max(100, 'Cannot exceed 100 %')
  .refine((v) => Math.round(v * 100) === v * 100, 'Use at most 2 decimals');

const patchOf = (field: QuickPickField, values: number[]): PatchServerSettingsBody =>
  field === 'riskOptions' ? { riskOptions: values } : { stopLossOptions: values };

/**
 * One of the order-entry quick-pick lists (DESIGN: risk and stop-loss options), kept in the server
 * settings so it follows the user. Adding or removing a value shows at once (SPEC §4: optimistic);
 * if the server refuses, the list goes back and the server's message (or 'Unable to update
 * settings.') is toasted by the mutation.
 */
export function QuickPickList({ field, label, description }: { field: QuickPickField; label: string; description: string }) {
  const settings = useServerSettings();
  const { mutate } = useUpdateServerSettings();
  const [draft, setDraft] = useState<number | string>('');
  const [error, setError] = useState<string | null>(null);
  const values = settings.data?.[field] ?? [];

  const add = () => {
    const parsed = quickPickValueSchema.safeParse(draft === '' ? undefined : Number(draft));
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Invalid value');
    if (values.includes(parsed.data)) return setError(`${parsed.data} % is already in the list`);
    if (values.length >= QUICK_PICK_MAX) return setError(`At most ${QUICK_PICK_MAX} values`);
    setError(null);
    const typed = draft;
    // The typed value stays in the field until the server has it: a refusal loses nothing.
    mutate((s) => (s[field].includes(parsed.data) ? null : patchOf(field, [...s[field], parsed.data].sort((a, b) => a - b))), {
      onSuccess: () => setDraft((current) => (current === typed ? '' : current)),
    });
  };
  const remove = (value: number) => mutate((s) => patchOf(field, s[field].filter((v) => v !== value)));

  return (
    <Stack gap={6} role="group" aria-label={label}>
      <div>
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      </div>
      {settings.isPending ? (
        <Loader size="sm" aria-label={`Loading ${label.toLowerCase()}`} />
      ) : settings.isError ? (
        <Text size="sm" c="red">
          Unable to load this list, please try refreshing the page.
        </Text>
      ) : (
        <Group gap={6} mih={28}>
          {values.length === 0 ? (
            <Text size="sm" c="dimmed">
              No values yet
            </Text>
          ) : (
            values.map((v) => (
              <Pill key={v} size="md" withRemoveButton onRemove={() => remove(v)} removeButtonProps={{ 'aria-label': `Remove ${v} %`, 'aria-hidden': false, tabIndex: 0 }}>
                {v} %
              </Pill>
            ))
          )}
        </Group>
      )}
      <Group gap="xs" align="flex-start">
        <NumberInput
          aria-label={`New ${label.toLowerCase()} value`}
          placeholder="e.g. 0.75"
          suffix=" %"
          decimalScale={2}
          min={0.01}
          max={100}
          clampBehavior="none"
          w={160}
          value={draft}
          error={error}
          disabled={!settings.isSuccess}
          onChange={(v) => {
            setDraft(v);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') add();
          }}
        />
        <Tooltip label="Add to the list">
          <ActionIcon size={36} variant="light" aria-label={`Add to ${label.toLowerCase()}`} disabled={!settings.isSuccess} onClick={add}>
            <IconPlus size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Stack>
  );
}
