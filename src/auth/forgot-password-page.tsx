import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { useForgotPassword } from '../api/auth/forgot-password';
import { forgotPasswordBodySchema } from '../api/contracts/auth';
import { applyServerFieldErrors } from '../ui/form-errors';
import { AuthCard } from './auth-card';

/** Shown after any accepted request: it must not tell whether an account has that e-mail (DESIGN §4). */
export const FORGOT_PASSWORD_SENT_TEXT =
  'If an account exists for that email, we have sent it a link to reset the password. The link is valid for 30 minutes.';

/** `/forgot-password` (only while FF_ENABLE_FORGOT_PASSWORD is on; the route checks the flag). */
export function ForgotPasswordPage() {
  const request = useForgotPassword();
  const form = useForm<z.input<typeof forgotPasswordBodySchema>, unknown, z.output<typeof forgotPasswordBodySchema>>({
    resolver: zodResolver(forgotPasswordBodySchema),
    defaultValues: { email: '' },
  });

  const onSubmit = form.handleSubmit((values) =>
    request.mutate(values, { onError: (error) => applyServerFieldErrors(error, form.setError, ['email']) }),
  );

  return (
    <AuthCard title="Forgot password">
      {request.isSuccess ? (
        <Alert icon={<IconMailCheck size={18} />} color="teal" variant="light">
          {FORGOT_PASSWORD_SENT_TEXT}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              Enter the email you registered with and we will send you a link to set a new password.
            </Text>
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              autoFocus
              {...form.register('email')}
              error={form.formState.errors.email?.message}
            />
            <Button type="submit" loading={request.isPending} disabled={request.isPending} fullWidth>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/login" size="sm">
        Back to log in
      </Anchor>
    </AuthCard>
  );
}
