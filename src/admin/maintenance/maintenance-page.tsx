import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { setMaintenanceBodySchema } from '../../api/contracts/maintenance';
import { useFeatureFlag } from '../../api/feature-flags/get-feature-flag-map';
import { useMaintenance } from '../../api/maintenance/get-maintenance';
import { useSetMaintenance } from '../../api/maintenance/set-maintenance';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { applyServerFieldErrors } from '../../ui/form-errors';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';

/**
 * `/admin-panel/maintenance`: the banner message every user sees (while FF_MAINTENANCE_BANNER is
 * on). Saving an empty message — or Clear, confirmed — removes the banner. Failures toast the
 * server's message or 'Unable to set maintenance message' (SPEC §8).
 */
export function MaintenancePage() {
  usePageTitle('Maintenance');
  const current = useMaintenance();
  const bannerOn = useFeatureFlag('FF_MAINTENANCE_BANNER');
  const save = useSetMaintenance();
  const [confirmClear, setConfirmClear] = useState(false);
  const form = useForm<z.input<typeof setMaintenanceBodySchema>, unknown, z.output<typeof setMaintenanceBodySchema>>({
    resolver: zodResolver(setMaintenanceBodySchema),
    defaultValues: { message: '' },
  });
  const message = current.data?.message ?? null;
  // Show the stored message in the form until the admin starts editing.
  useEffect(() => {
    if (!form.formState.isDirty) form.reset({ message: message ?? '' });
  }, [message, form]);

  const send = (text: string, done?: () => void) =>
    save.mutate(
      { message: text },
      {
        onSuccess: (saved) => {
          toastSuccess(saved.message ? 'Maintenance message saved' : 'Maintenance message cleared');
          form.reset({ message: saved.message ?? '' });
          done?.();
        },
        onError: (error) => {
          applyServerFieldErrors(error, form.setError, ['message']);
          done?.();
        },
      },
    );

  const onSubmit = form.handleSubmit(({ message: text }) => send(text));
  return (
    <Stack gap="lg" p="lg" maw={760}>
      <Title order={2}>Maintenance</Title>
      {!bannerOn ? (
        <Alert color="yellow" variant="light">
          FF_MAINTENANCE_BANNER is off: users do not see the banner until it is switched on under Feature flags.
        </Alert>
      ) : null}
      <Card withBorder radius="md" padding="lg">
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            Current message
          </Text>
          <Text data-testid="current-maintenance-message" fs={message ? undefined : 'italic'}>
            {message ?? 'No message: the banner is hidden.'}
          </Text>
        </Stack>
      </Card>
      <form onSubmit={onSubmit} noValidate aria-label="Maintenance message">
        <Stack gap="sm">
          <Textarea
            label="Message"
            description="Shown to every user in the banner at the top of the page. Up to 500 characters."
            autosize
            minRows={3}
            maxLength={500}
            {...form.register('message')}
            error={form.formState.errors.message?.message}
          />
          <Group>
            <Button type="submit" loading={save.isPending && !confirmClear}>
              Save message
            </Button>
            <Button variant="light" color="red" disabled={!message} onClick={() => setConfirmClear(true)}>
              Clear message
            </Button>
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={confirmClear}
        title="Clear maintenance message"
        confirmLabel="Clear"
        loading={save.isPending}
        onCancel={() => setConfirmClear(false)}
        onConfirm={() => send('', () => setConfirmClear(false))}
      >
        The banner disappears for every user.
      </ConfirmDialog>
    </Stack>
  );
}
