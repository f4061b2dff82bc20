import { Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useClearTriggeredAlerts } from '../../api/alerts/clear-triggered-alerts';
import { useAlerts } from '../../api/alerts/list-alerts';
import { ALERTS_ACTIVE_MAX } from '../../api/contracts/alerts';
import type { PanelProps } from '../shared/panel-props';
import { ActiveAlertRow } from './active-alert-row';
import { AlertSoundPicker } from './alert-sound-picker';
import { CreateAlertForm } from './create-alert-form';
import { NotificationPermission } from './notification-permission';
import { TriggeredAlertRow } from './triggered-alert-row';
import classes from './alerts-panel.module.css';

/**
 * Price alerts: set one, see the active ones with their distance from the live price, and the
 * triggered ones (re-arm, delete, clear). Firing is the alert monitor's job (a workstation service),
 * so alerts ring with this panel closed too.
 */
export function AlertsPanel(_props: PanelProps) {
  const { data: alerts, isPending, isError } = useAlerts();
  const { mutate: clearTriggered, isPending: clearing } = useClearTriggeredAlerts();
  const active = (alerts ?? []).filter((a) => a.status === 'active');
  const triggered = (alerts ?? []).filter((a) => a.status === 'triggered');

  return (
    <ScrollArea h="100%" type="auto" offsetScrollbars="y" scrollbarSize={6} data-testid="alerts-panel">
      <Stack gap="sm" p={8}>
        <CreateAlertForm />

        <Stack gap={2} className={classes.section}>
          <Text size="xs" fw={600} c="dimmed" tt="uppercase">
            Active ({active.length}
            {active.length >= ALERTS_ACTIVE_MAX ? `, the maximum` : ''})
          </Text>
          {isPending ? (
            <Text size="sm" c="dimmed">
              Loading alerts…
            </Text>
          ) : isError ? (
            <Text size="sm" c="dimmed">
              Alerts could not be loaded.
            </Text>
          ) : active.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="alerts-active-empty">
              No active alerts. Set one above, or from a chart.
            </Text>
          ) : (
            <Stack gap={0} role="list" aria-label="Active alerts" data-testid="alerts-active">
              {active.map((alert) => (
                <ActiveAlertRow key={alert.id} alert={alert} />
              ))}
            </Stack>
          )}
        </Stack>

        <Stack gap={2} className={classes.section}>
          <Group justify="space-between" gap={4}>
            <Text size="xs" fw={600} c="dimmed" tt="uppercase">
              Triggered ({triggered.length})
            </Text>
            {triggered.length ? (
              <Button size="compact-xs" variant="subtle" color="gray" loading={clearing} onClick={() => clearTriggered()}>
                Clear triggered
              </Button>
            ) : null}
          </Group>
          {triggered.length === 0 ? (
            <Text size="sm" c="dimmed">
              Alerts that fire move here.
            </Text>
          ) : (
            <Stack gap={0} role="list" aria-label="Triggered alerts" data-testid="alerts-triggered">
              {triggered.map((alert) => (
                <TriggeredAlertRow key={alert.id} alert={alert} />
              ))}
            </Stack>
          )}
        </Stack>

        <Stack gap={6} className={classes.section}>
          <AlertSoundPicker />
          <NotificationPermission />
        </Stack>
      </Stack>
    </ScrollArea>
  );
}
