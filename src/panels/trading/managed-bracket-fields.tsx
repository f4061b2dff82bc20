import { Anchor, Button, Checkbox, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { ApiKey } from '../../api/contracts/api-keys';
import { cmp, dec, isZero } from '../../api/contracts/decimal';
import type { ManagedBracket } from '../../api/contracts/trading';
import { useSetServerCustody } from '../../api/trade/managed';
import { ActivityLogModal } from './activity-log';
import { CustodyConsentModal } from '../shared/trading/custody-consent';
import { isNumberText } from './order-math';

/** What the form keeps while the user decides (the trail value as typed). */
export interface ManagedDraft {
  breakEven: boolean;
  trail: boolean;
  trailMode: 'price' | 'percent';
  trailValue: string;
}

export const MANAGED_DRAFT_OFF: ManagedDraft = { breakEven: false, trail: false, trailMode: 'percent', trailValue: '' };

/** The body's `managed`, or null (nothing on); a problem names the field. */
export function managedOf(d: ManagedDraft): { managed: ManagedBracket | null; problem: string | null } {
  if (!d.breakEven && !d.trail) return { managed: null, problem: null };
  if (d.trail && (!isNumberText(d.trailValue) || isZero(dec(d.trailValue)))) return { managed: null, problem: 'Enter the trailing distance' };
  if (d.trail && d.trailMode === 'percent' && cmp(dec(d.trailValue), dec(50)) >= 0) return { managed: null, problem: 'A trailing distance must be below 50%' };
  return { managed: { breakEven: d.breakEven, trail: d.trail ? { mode: d.trailMode, value: d.trailValue } : null }, problem: null };
}

/**
 * "Managed by server" in the bracket form (FF_ENABLE_SEMI_AUTO, issue 13): break-even after the
 * first target and a trailing stop, on top of the guard every bracket has. Disabled and explained
 * until the key's owner allows server custody (asked once per key).
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
            The server can move your stop to break-even and trail it with no browser open. It needs your permission to keep this key&apos;s
            credentials, sealed, while a bracket is open (the same permission every bracket needs).
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
      {error ? (
        <Text size="xs" c="red">
          {error}
        </Text>
      ) : null}
      <CustodyConsentModal apiKey={apiKey} opened={asking} onClose={() => setAsking(false)} />
      <ActivityLogModal opened={activity} onClose={() => setActivity(false)} />
    </Stack>
  );
}
