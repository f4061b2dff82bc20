import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Alert, Button, CopyButton, Group, NumberInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { emailSchema } from '../../api/contracts/auth';
import { ROLES, type Role } from '../../api/contracts/common';
import { INVITATIONS_MAX_PER_REQUEST, type Invitation } from '../../api/contracts/invitations';
import { useCreateInvitations } from '../../api/invitations/create-invitations';
import { DateTimePicker } from '../../ui/dates';
import { applyServerFieldErrors } from '../../ui/form-errors';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';
import { inviteLink } from './invite-link';

const wholeNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? null : Number(v)),
    z.number({ error: `Enter ${label}` }).int('Enter a whole number').min(min, `At least ${min}`).max(max, `At most ${max}`),
  );

/** The generate form: how many codes, uses per code, an optional expiry, e-mail and role. */
export const generateFormSchema = z.object({
  count: wholeNumber('how many codes', 1, INVITATIONS_MAX_PER_REQUEST),
  maxUses: wholeNumber('the uses per code', 1, 1000),
  expiresAt: z
    .string()
    .nullable()
    .refine((v) => v === null || new Date(v.replace(' ', 'T')).getTime() > Date.now(), 'The expiry must be in the future'),
  email: z.union([z.literal(''), emailSchema]),
  role: z.enum(ROLES),
});
type GenerateFormValues = { count: number | string; maxUses: number | string; expiresAt: string | null; email: string; role: Role };

/** `/admin-panel/invitations/generate`: creates codes, then lists them with their sign-up links. */
export function GenerateInvitationsPage() {
  usePageTitle('Generate invitations');
  const create = useCreateInvitations();
  const [created, setCreated] = useState<Invitation[] | null>(null);
  const form = useForm<GenerateFormValues, unknown, z.output<typeof generateFormSchema>>({
    resolver: zodResolver(generateFormSchema),
    defaultValues: { count: 1, maxUses: 1, expiresAt: null, email: '', role: 'user' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((v) =>
    create.mutate(
      {
        count: v.count,
        maxUses: v.maxUses,
        // The picker gives local time "YYYY-MM-DD HH:mm:ss": send the instant.
        expiresAt: v.expiresAt ? new Date(v.expiresAt.replace(' ', 'T')).toISOString() : null,
        email: v.email || null,
        role: v.role,
      },
      {
        onSuccess: (invitations) => {
          toastSuccess(`${invitations.length} invitation${invitations.length === 1 ? '' : 's'} generated`);
          setCreated(invitations);
        },
        onError: (error) => applyServerFieldErrors(error, form.setError, ['count', 'maxUses', 'expiresAt', 'email', 'role']),
      },
    ),
  );

  const links = created?.map((i) => inviteLink(i.code)).join('\n') ?? '';
  return (
    <Stack gap="lg" p="lg" maw={760}>
      <Group gap="sm">
        <ActionIcon component={Link} to="/admin-panel/invitations" variant="default" size="lg" aria-label="Back">
          <IconArrowLeft size={18} />
        </ActionIcon>
        <Title order={2}>Generate invitations</Title>
      </Group>
      <form onSubmit={onSubmit} noValidate aria-label="Generate invitations">
        <Stack gap="sm" maw={420}>
          <Controller
            control={form.control}
            name="count"
            render={({ field }) => (
              <NumberInput label="Number of codes" min={1} max={INVITATIONS_MAX_PER_REQUEST} allowDecimal={false} value={field.value} onChange={field.onChange} error={errors.count?.message} />
            )}
          />
          <Controller
            control={form.control}
            name="maxUses"
            render={({ field }) => (
              <NumberInput
                label="Sign-ups per code"
                description="1 for a personal code; more for a code shared with a group"
                min={1}
                allowDecimal={false}
                value={field.value}
                onChange={field.onChange}
                error={errors.maxUses?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="expiresAt"
            render={({ field }) => (
              <DateTimePicker
                label="Expires"
                placeholder="Never"
                clearable
                minDate={new Date()}
                value={field.value}
                onChange={field.onChange}
                error={errors.expiresAt?.message}
              />
            )}
          />
          <TextInput label="Only for e-mail" placeholder="Anyone with the code" {...form.register('email')} error={errors.email?.message} />
          <Controller
            control={form.control}
            name="role"
            render={({ field }) => (
              <Select label="Role of the new account" data={[...ROLES]} allowDeselect={false} value={field.value} onChange={(v) => v && field.onChange(v)} error={errors.role?.message} />
            )}
          />
          <Group>
            <Button type="submit" loading={create.isPending}>
              Generate
            </Button>
          </Group>
        </Stack>
      </form>
      {created ? (
        <Alert color="teal" title={`${created.length} new code${created.length === 1 ? '' : 's'}`}>
          <Stack gap="sm">
            <Table withRowBorders={false} verticalSpacing={4} aria-label="Generated invitations">
              <Table.Tbody>
                {created.map((i) => (
                  <Table.Tr key={i.id}>
                    <Table.Td>
                      <Text ff="monospace" fw={600} data-testid="generated-code">
                        {i.code}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {inviteLink(i.code)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group>
              <CopyButton value={links}>{({ copied, copy }) => <Button size="xs" variant="light" onClick={copy}>{copied ? 'Copied' : 'Copy all links'}</Button>}</CopyButton>
              <Button size="xs" variant="subtle" component={Link} to="/admin-panel/invitations">
                Back to invitations
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
    </Stack>
  );
}
