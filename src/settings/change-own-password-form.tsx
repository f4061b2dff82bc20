import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useChangeOwnPassword } from '../api/users/update-user';
import { newPasswordFormSchema } from '../auth/password-form-schema';
import { applyServerFieldErrors } from '../ui/form-errors';
import { toastSuccess } from '../ui/toast';

/**
 * Changes the signed-in user's password: `PATCH /v1/users/{id}` with only `password` (SPEC §7).
 * Failures toast the server's message or 'Unable to change password' (the endpoint's fallback).
 */
export function ChangeOwnPasswordForm({ userId }: { userId: string }) {
  const change = useChangeOwnPassword();
  const form = useForm<z.input<typeof newPasswordFormSchema>, unknown, z.output<typeof newPasswordFormSchema>>({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(({ password }) =>
    change.mutate(
      { id: userId, password },
      {
        onSuccess: () => {
          toastSuccess('Password changed successfully');
          form.reset();
        },
        onError: (error) => applyServerFieldErrors(error, form.setError, ['password']),
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change password">
      <Stack gap="sm" maw={360}>
        <PasswordInput label="New password" autoComplete="new-password" {...form.register('password')} error={errors.password?.message} />
        <PasswordInput
          label="Repeat new password"
          autoComplete="new-password"
          {...form.register('confirmPassword')}
          error={errors.confirmPassword?.message}
        />
        <Group>
          <Button type="submit" loading={change.isPending} disabled={change.isPending}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
