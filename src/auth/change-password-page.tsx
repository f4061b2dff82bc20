import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import { useChangePassword } from '../api/auth/change-password';
import { useFeatureFlag } from '../api/feature-flags/get-feature-flag-map';
import { applyServerFieldErrors } from '../ui/form-errors';
import { toastSuccess } from '../ui/toast';
import { AuthCard } from './auth-card';
import { newPasswordFormSchema } from './password-form-schema';

/** `/change-password?token=`: sets a new password with the token from the reset e-mail, then goes to log in. */
export function ChangePasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const forgotEnabled = useFeatureFlag('FF_ENABLE_FORGOT_PASSWORD');
  const change = useChangePassword();
  const form = useForm<z.input<typeof newPasswordFormSchema>, unknown, z.output<typeof newPasswordFormSchema>>({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(({ password }) =>
    change.mutate(
      { token, password },
      {
        onSuccess: () => {
          toastSuccess('Password changed successfully');
          navigate('/login', { replace: true });
        },
        onError: (error) => applyServerFieldErrors(error, form.setError, ['password']),
      },
    ),
  );

  return (
    <AuthCard title="Change password">
      {token ? (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <PasswordInput label="New password" autoComplete="new-password" autoFocus {...form.register('password')} error={errors.password?.message} />
            <PasswordInput
              label="Repeat new password"
              autoComplete="new-password"
              {...form.register('confirmPassword')}
              error={errors.confirmPassword?.message}
            />
            <Button type="submit" loading={change.isPending} disabled={change.isPending} fullWidth>
              Change password
            </Button>
          </Stack>
        </form>
      ) : (
        <Alert color="yellow" variant="light">
          This link has no reset token. Open the link from the email again
          {forgotEnabled ? ', or request a new one' : ''}.
        </Alert>
      )}
      <Stack gap={4}>
        {forgotEnabled ? (
          <Anchor component={Link} to="/forgot-password" size="sm">
            Request a new reset link
          </Anchor>
        ) : null}
        <Anchor component={Link} to="/login" size="sm">
          Back to log in
        </Anchor>
      </Stack>
    </AuthCard>
  );
}
