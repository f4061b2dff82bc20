import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { useSignup } from '../api/auth/signup';
import { emailSchema, passwordSchema, type SignupBody } from '../api/contracts/auth';
import { useFeatureFlag } from '../api/feature-flags/get-feature-flag-map';
import { applyServerFieldErrors } from '../ui/form-errors';
import { AuthCard } from './auth-card';

/** The sign-up form: the contract's email and password rules, plus a repeated password and the invitation code. */
export function registerFormSchema(inviteRequired: boolean) {
  return z
    .object({
      email: emailSchema,
      password: passwordSchema,
      confirmPassword: z.string().min(1, 'Repeat the password'),
      inviteCode: z
        .string()
        .trim()
        .max(64)
        .refine((code) => !inviteRequired || code.length > 0, 'Registration is by invitation only: enter your invitation code'),
    })
    .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], error: 'Passwords do not match' });
}
type RegisterSchema = ReturnType<typeof registerFormSchema>;

/**
 * `/register`, `/register?invite=CODE`, `/register?ref=CODE`. Open sign-up while
 * FF_ENABLE_REGISTRATION is on; otherwise an invitation code is needed (DESIGN §4). The referral
 * code of `?ref=` is passed to the server, which records the referrer.
 */
export function RegisterPage() {
  const [params] = useSearchParams();
  const invite = params.get('invite')?.trim() ?? '';
  const referralCode = params.get('ref')?.trim() || undefined;
  const open = useFeatureFlag('FF_ENABLE_REGISTRATION');
  const signup = useSignup();
  const schema = useMemo(() => registerFormSchema(!open), [open]);
  const form = useForm<z.input<RegisterSchema>, unknown, z.output<RegisterSchema>>({
    resolver: zodResolver(schema),
    defaultValues: { email: '', password: '', confirmPassword: '', inviteCode: invite },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    const body: SignupBody = {
      email: values.email,
      password: values.password,
      ...(values.inviteCode ? { inviteCode: values.inviteCode } : {}),
      ...(referralCode ? { referralCode } : {}),
    };
    signup.mutate(body, {
      onError: (error) => applyServerFieldErrors(error, form.setError, ['email', 'password', 'inviteCode']),
    });
  });

  return (
    <AuthCard title="Register">
      {referralCode ? (
        <Text size="sm" c="dimmed">
          You were referred with code <b>{referralCode}</b>.
        </Text>
      ) : null}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput label="Email" type="email" autoComplete="email" autoFocus {...form.register('email')} error={errors.email?.message} />
          <PasswordInput label="Password" autoComplete="new-password" {...form.register('password')} error={errors.password?.message} />
          <PasswordInput
            label="Repeat password"
            autoComplete="new-password"
            {...form.register('confirmPassword')}
            error={errors.confirmPassword?.message}
          />
          {!open || invite ? (
            <TextInput
              label="Invitation code"
              description={open ? undefined : 'Registration is by invitation only'}
              autoComplete="off"
              {...form.register('inviteCode')}
              error={errors.inviteCode?.message}
            />
          ) : null}
          <Button type="submit" loading={signup.isPending} disabled={signup.isPending} fullWidth>
            Register
          </Button>
        </Stack>
      </form>
      <Text size="sm" c="dimmed">
        Already have an account?{' '}
        <Anchor component={Link} to="/login">
          Log in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
