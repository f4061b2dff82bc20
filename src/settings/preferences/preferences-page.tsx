import { ActionIcon, Card, Group, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { z } from 'zod';
import { useFeatureFlag } from '../../api/feature-flags/get-feature-flag-map';
import {
  ALERT_SOUNDS,
  BALANCE_TYPES,
  ORDER_ENTRY_TYPES,
  setAlertSound,
  setUseTestnet,
  updateUserSettings,
  userSettings,
  type AlertSound,
  type BalanceType,
  type OrderEntryType,
} from '../../state/user-settings';
import { ALERT_SOUND_LABELS, playAlertSound } from '../../ui/alert-sounds';
import { AlertEmailsSwitch } from './alert-emails-switch';
import { HotkeysSection } from './hotkeys-section';
import { QuickPickList } from './quick-pick-list';
import { usePageTitle } from '../../ui/use-page-title';

export const ORDER_TYPE_LABELS: Record<OrderEntryType, string> = {
  'bracket-order': 'Bracket order',
  market: 'Market',
  limit: 'Limit',
  'stop-market': 'Stop market',
  'stop-limit': 'Stop limit',
  'take-profit': 'Take profit',
  'ladder-order': 'Ladder order',
};

/** Field rules of the values typed in (the rest are switches and lists that cannot be wrong). */
export const maxRiskSchema = z.number({ error: 'Enter a percentage' }).gt(0, 'Risk must be above 0 %').max(100, 'Risk cannot exceed 100 %');
export const balanceCurrencySchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{2,10}$/, 'Use the asset code, e.g. USDT');

function Section({ title, description, children, id }: { title: string; description?: string; children: ReactNode; id?: string }) {
  return (
    <Card withBorder radius="md" padding="lg" id={id}>
      <Stack gap="sm">
        <div>
          <Title order={4}>{title}</Title>
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
        </div>
        {children}
      </Stack>
    </Card>
  );
}

/** A typed-in setting: shows its error and reaches the store only when valid. */
function MaxRiskInput({ value }: { value: number }) {
  const [draft, setDraft] = useState<number | string>(value);
  const [error, setError] = useState<string | null>(null);
  return (
    <NumberInput
      label="Max risk per trade"
      description="Percent of the balance a bracket order risks; sizes orders from the stop distance"
      suffix=" %"
      decimalScale={2}
      step={0.1}
      min={0.01}
      max={100}
      w={260}
      value={draft}
      error={error}
      onChange={(next) => {
        setDraft(next);
        const parsed = maxRiskSchema.safeParse(typeof next === 'number' ? next : next === '' ? undefined : Number(next));
        if (parsed.success) {
          setError(null);
          updateUserSettings({ maxRisk: parsed.data });
        } else {
          setError(parsed.error.issues[0]?.message ?? 'Invalid value');
        }
      }}
    />
  );
}

function BalanceCurrencyInput({ value }: { value: string }) {
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  return (
    <TextInput
      label="Balance currency"
      description="Asset the balance is shown in"
      w={200}
      value={draft}
      error={error}
      onChange={(e) => {
        const next = e.currentTarget.value.toUpperCase();
        setDraft(next);
        const parsed = balanceCurrencySchema.safeParse(next);
        if (parsed.success) {
          setError(null);
          updateUserSettings({ balanceCurrency: parsed.data });
        } else {
          setError(parsed.error.issues[0]?.message ?? 'Invalid value');
        }
      }}
    />
  );
}

/**
 * `/settings/preferences`: the user-facing settings of SPEC §3. Every change goes straight into the
 * settings store, which saves it on this device for this user (SPEC §1: per-user storage name).
 */
export function PreferencesPage() {
  usePageTitle('Preferences');
  const s = useSnapshot(userSettings);
  const ladder = useFeatureFlag('FF_LADDER_ORDERS');
  const orderTypes = ORDER_ENTRY_TYPES.filter((t) => t !== 'ladder-order' || ladder || s.orderType === 'ladder-order');

  return (
    <Stack gap="lg" p="lg" maw={860}>
      <div>
        <Title order={2}>Preferences</Title>
        <Text size="sm" c="dimmed">
          Changes apply at once and are kept on this device for your account.
        </Text>
      </div>

      <Section title="Confirmations" description="Ask before these actions">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Switch label="Cancel order" checked={s.confirmCancelOrder} onChange={(e) => updateUserSettings({ confirmCancelOrder: e.currentTarget.checked })} />
          <Switch
            label="Cancel order from its chart line"
            checked={s.confirmCancelOrderChartLine}
            onChange={(e) => updateUserSettings({ confirmCancelOrderChartLine: e.currentTarget.checked })}
          />
          <Switch label="Close position" checked={s.confirmClosePosition} onChange={(e) => updateUserSettings({ confirmClosePosition: e.currentTarget.checked })} />
          <Switch
            label="Close position from its chart line"
            checked={s.confirmClosePositionChartLine}
            onChange={(e) => updateUserSettings({ confirmClosePositionChartLine: e.currentTarget.checked })}
          />
        </SimpleGrid>
      </Section>

      <Section title="Balance">
        <Group align="flex-start" gap="lg">
          <Stack gap={4}>
            <Text size="sm" fw={500} id="balance-type-label">
              Balance type
            </Text>
            <SegmentedControl
              aria-labelledby="balance-type-label"
              data={BALANCE_TYPES.map((t) => ({ value: t, label: t === 'total' ? 'Total' : 'Available' }))}
              value={s.balanceType}
              onChange={(v) => updateUserSettings({ balanceType: v as BalanceType })}
            />
          </Stack>
          <BalanceCurrencyInput value={s.balanceCurrency} />
        </Group>
        <Switch
          label="Mask balance"
          description="Hide balance figures (for screen sharing)"
          checked={s.maskBalance}
          onChange={(e) => updateUserSettings({ maskBalance: e.currentTarget.checked })}
        />
      </Section>

      <Section title="Orders and positions">
        <Group align="flex-start" gap="lg">
          <MaxRiskInput value={s.maxRisk} />
          <Select
            label="Default order type"
            w={220}
            allowDeselect={false}
            data={orderTypes.map((t) => ({ value: t, label: ORDER_TYPE_LABELS[t] }))}
            value={s.orderType}
            onChange={(v) => v && updateUserSettings({ orderType: v as OrderEntryType })}
          />
        </Group>
        <Switch
          label="Hide other symbols' orders"
          checked={s.hideOtherSymbolsOrders}
          onChange={(e) => updateUserSettings({ hideOtherSymbolsOrders: e.currentTarget.checked })}
        />
        <Switch
          label="Hide other symbols' positions"
          checked={s.hideOtherSymbolsPositions}
          onChange={(e) => updateUserSettings({ hideOtherSymbolsPositions: e.currentTarget.checked })}
        />
        <Switch
          label="Allow position close"
          description="Close a position with the ✕ on its chart line and with the close-position hotkey (the Positions panel always can)"
          checked={s.allowPositionClose}
          onChange={(e) => updateUserSettings({ allowPositionClose: e.currentTarget.checked })}
        />
      </Section>

      <Section title="Quick picks" description="The values order entry offers with one click; kept with your account on every device">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <QuickPickList field="riskOptions" label="Risk options" description="Percent of the balance to risk on a trade" />
          <QuickPickList field="stopLossOptions" label="Stop-loss options" description="Stop distance from the entry price, in percent" />
        </SimpleGrid>
      </Section>

      <Section title="Alerts">
        <Group gap="xs" align="flex-end">
          <Select
            label="Alert sound"
            w={220}
            allowDeselect={false}
            data={ALERT_SOUNDS.map((id) => ({ value: id, label: `${ALERT_SOUND_LABELS[id]} (${id})` }))}
            value={s.alertSound}
            onChange={(v) => {
              if (!v) return;
              setAlertSound(v as AlertSound);
              void playAlertSound(v);
            }}
          />
          <Tooltip label="Preview sound">
            <ActionIcon variant="light" size={36} aria-label="Preview sound" onClick={() => void playAlertSound(s.alertSound)}>
              <IconPlayerPlay size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
        <AlertEmailsSwitch />
      </Section>

      <Section title="Hotkeys" id="hotkeys" description="Keys that act in the workstation; never while you type in a field. Kept on this device">
        <HotkeysSection />
      </Section>

      <Section title="Network" description="Trade and chart on the exchanges' test networks with test funds">
        <Switch label="Use testnet" checked={s.useTestnet} onChange={(e) => setUseTestnet(e.currentTarget.checked)} />
      </Section>
    </Stack>
  );
}
