import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { useSignin } from '../api/auth/signin';
import { signinBodySchema } from '../api/contracts/auth';
import { useFeatureFlag } from '../api/feature-flags/get-feature-flag-map';
import { applyServerFieldErrors } from '../ui/form-errors';
import { AuthCard } from './auth-card';

type LoginForm = z.input<typeof signinBodySchema>;

/** `/login`. A successful sign-in stores the tokens; the signed-out guard then moves on to /trade. */
export function LoginPage() {
  const signin = useSignin();
  const forgotEnabled = useFeatureFlag('FF_ENABLE_FORGOT_PASSWORD');
  const form = useForm<LoginForm, unknown, z.output<typeof signinBodySchema>>({
    resolver: zodResolver(signinBodySchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) =>
    signin.mutate(values, { onError: (error) => applyServerFieldErrors(error, form.setError, ['email', 'password']) }),
  );

  return (
    <AuthCard title="Log in">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput label="Email" type="email" autoComplete="email" autoFocus {...form.register('email')} error={errors.email?.message} />
          <PasswordInput label="Password" autoComplete="current-password" {...form.register('password')} error={errors.password?.message} />
          {forgotEnabled ? (
            <Group justify="flex-end">
              <Anchor component={Link} to="/forgot-password" size="sm">
                Forgot password?
              </Anchor>
            </Group>
          ) : null}
          <Button type="submit" loading={signin.isPending} disabled={signin.isPending} fullWidth>
            Log in
          </Button>
        </Stack>
      </form>
      <Text size="sm" c="dimmed">
        No account yet?{' '}
        <Anchor component={Link} to="/register">
          Register
        </Anchor>
      </Text>
    </AuthCard>
  );
}
