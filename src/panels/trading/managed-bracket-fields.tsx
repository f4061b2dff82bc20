import { Anchor, Button, Checkbox, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { ApiKey } from '../../api/contracts/api-keys';
import type { ManagedBracket } from '../../api/contracts/trading';
import { useSetServerCustody } from '../../api/trade/managed';
import { ActivityLogModal } from './activity-log';
import { isNumberText } from './order-math';

/** What the form keeps while the user decides (the trail value as typed). */
export interface ManagedDraft {
  breakEven: boolean;
  trail: boolean;
  trailMode: 'price' | 'percent';
  trailValue: string;
  cancelOnClose: boolean;
}

export const MANAGED_DRAFT_OFF: ManagedDraft = { breakEven: false, trail: false, trailMode: 'percent', trailValue: '', cancelOnClose: false };

/** The body's `managed`, or null (nothing on); a problem names the field. */
export function managedOf(d: ManagedDraft): { managed: ManagedBracket | null; problem: string | null } {
  if (!d.breakEven && !d.trail && !d.cancelOnClose) return { managed: null, problem: null };
  if (d.trail && (!isNumberText(d.trailValue) || Number(d.trailValue) <= 0)) return { managed: null, problem: 'Enter the trailing distance' };
  if (d.trail && d.trailMode === 'percent' && Number(d.trailValue) >= 50) return { managed: null, problem: 'A trailing distance must be below 50%' };
  return { managed: { breakEven: d.breakEven, trail: d.trail ? { mode: d.trailMode, value: d.trailValue } : null, cancelOnClose: d.cancelOnClose }, problem: null };
}

export const CONSENT_TEXT =
  'Managed brackets keep working with your browser closed: the server watches the bracket and changes its orders for you. ' +
  "To do that it keeps this key's credentials on the server, encrypted under the server's own key, for as long as a managed bracket of the key runs; " +
  'they are deleted when the last one ends or when you turn this off. Every action it takes is in the activity log.';

/**
 * "Managed by server" in the bracket form (FF_ENABLE_SEMI_AUTO, issue 13): break-even after the
 * first target, a trailing stop, cancel the rest when the position closes elsewhere. Disabled and
 * explained until the key's owner allows server custody (asked once per key).
 */
export function ManagedBracketFields({ apiKey, value, onChange, error }: { apiKey: ApiKey; value: ManagedDraft; onChange: (d: ManagedDraft) => void; error?: string }) {
  const custody = useSetServerCustody();
  const [asking, setAsking] = useState(false);
  const [activity, setActivity] = useState(false);
  const allowed = apiKey.serverCustody;
  const set = (patch: Partial<ManagedDraft>) => onChange({ ...value, ...patch });
  return (
    <Stack gap={4} data-testid="managed-bracket" p={6} style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}>
      <Group justify="space-between" gap={4}>
        <Text size="xs" fw={700}>
          Managed by server
        </Text>
        <Group gap={8}>
          <Anchor size="xs" component="button" type="button" onClick={() => setActivity(true)}>
            Activity
          </Anchor>
          {allowed ? (
            <Anchor size="xs" component="button" type="button" c="dimmed" onClick={() => custody.mutate({ apiKeyId: apiKey.id, on: false })}>
              Stop allowing
            </Anchor>
          ) : null}
        </Group>
      </Group>
      {!allowed ? (
        <>
          <Text size="xs" c="dimmed">
            The server can move your stop to break-even, trail it and clean up the bracket with no browser open. It needs your permission to keep this
            key&apos;s credentials, sealed, while it does.
          </Text>
          <Button size="compact-xs" variant="light" onClick={() => setAsking(true)}>
            Allow for {apiKey.name}…
          </Button>
        </>
      ) : null}
      <Checkbox size="xs" disabled={!allowed} label="Move the stop to break-even when take-profit 1 fills" checked={allowed && value.breakEven} onChange={(e) => set({ breakEven: e.currentTarget.checked })} />
      <Group gap={6} align="center" wrap="nowrap">
        <Checkbox size="xs" disabled={!allowed} label="Trail the stop by" checked={allowed && value.trail} onChange={(e) => set({ trail: e.currentTarget.checked })} />
        <TextInput
          size="xs"
          w={80}
          aria-label="Trailing distance"
          disabled={!allowed || !value.trail}
          value={value.trailValue}
          onChange={(e) => set({ trailValue: e.currentTarget.value })}
          inputMode="decimal"
          error={error ? true : undefined}
        />
        <SegmentedControl size="xs" disabled={!allowed || !value.trail} value={value.trailMode} onChange={(v) => set({ trailMode: v as 'price' | 'percent' })} data={[{ value: 'percent', label: '%' }, { value: 'price', label: 'price' }]} />
      </Group>
      <Checkbox size="xs" disabled={!allowed} label="Cancel the rest when the position is closed elsewhere" checked={allowed && value.cancelOnClose} onChange={(e) => set({ cancelOnClose: e.currentTarget.checked })} />
      {error ? (
        <Text size="xs" c="red">
          {error}
        </Text>
      ) : null}
      <Modal opened={asking} onClose={() => setAsking(false)} title="Let the server manage brackets with this key?">
        <Stack gap="sm">
          <Text size="sm">{CONSENT_TEXT}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)}>
              Not now
            </Button>
            <Button
              loading={custody.isPending}
              onClick={() =>
                custody.mutate(
                  { apiKeyId: apiKey.id, on: true },
                  {
                    onSuccess: () => setAsking(false),
                  },
                )
              }
            >
              Allow
            </Button>
          </Group>
        </Stack>
      </Modal>
      <ActivityLogModal opened={activity} onClose={() => setActivity(false)} />
    </Stack>
  );
}
