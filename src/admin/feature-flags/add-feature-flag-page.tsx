import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Button, Group, Stack, Switch, TextInput, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { createFeatureFlagBodySchema } from '../../api/contracts/feature-flags';
import { useCreateFeatureFlag } from '../../api/feature-flags/create-feature-flag';
import { applyServerFieldErrors } from '../../ui/form-errors';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';

/** `/admin-panel/feature-flags/add-new`: name + enabled; back to the list on success. */
export function AddFeatureFlagPage() {
  usePageTitle('Add feature flag');
  const navigate = useNavigate();
  const create = useCreateFeatureFlag();
  const form = useForm<z.input<typeof createFeatureFlagBodySchema>, unknown, z.output<typeof createFeatureFlagBodySchema>>({
    resolver: zodResolver(createFeatureFlagBodySchema),
    defaultValues: { name: 'FF_', enabled: false },
  });
  const onSubmit = form.handleSubmit((body) =>
    create.mutate(body, {
      onSuccess: (flag) => {
        toastSuccess(`${flag.name} created`);
        navigate('/admin-panel/feature-flags');
      },
      onError: (error) => applyServerFieldErrors(error, form.setError, ['name', 'enabled']),
    }),
  );
  return (
    <Stack gap="lg" p="lg" maw={560}>
      <Group gap="sm">
        <ActionIcon component={Link} to="/admin-panel/feature-flags" variant="default" size="lg" aria-label="Back">
          <IconArrowLeft size={18} />
        </ActionIcon>
        <Title order={2}>Add feature flag</Title>
      </Group>
      <form onSubmit={onSubmit} noValidate aria-label="Add feature flag">
        <Stack gap="sm">
          <TextInput
            label="Name"
            description="Upper-case letters, digits and underscores, e.g. FF_MY_FEATURE"
            autoComplete="off"
            {...form.register('name', { setValueAs: (v: string) => v.toUpperCase() })}
            error={form.formState.errors.name?.message}
          />
          <Switch label="Enabled" {...form.register('enabled')} />
          <Group>
            <Button type="submit" loading={create.isPending}>
              Create flag
            </Button>
            <Button variant="default" component={Link} to="/admin-panel/feature-flags">
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
