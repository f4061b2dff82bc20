import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, Group, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconFlask, IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useCreateSimCredentials } from '../../api/api-keys/create-sim-credentials';
import { useConfig } from '../../api/config/get-config';
import { applyServerFieldErrors } from '../../ui/form-errors';
import { API_KEY_FORM_DEFAULTS, API_KEY_SERVER_FIELDS, apiKeyFormSchema, type ApiKeyFormInput, type ApiKeyFormValues } from './api-key-form-schema';
import { EXCHANGE_SELECT_DATA, NETWORK_SELECT_DATA } from './exchange-options';

export interface ApiKeyFormProps {
  submitLabel: string;
  pending: boolean;
  /** Offer "Remember password on this device" (the user's own keys, not an admin adding one for someone). */
  allowRemember: boolean;
  /** Sends the key; call `onError` with the failure so the server's field messages land on the fields. */
  onSubmit: (values: ApiKeyFormValues, onError: (error: unknown) => void) => void;
  onCancel?: () => void;
}

/**
 * Adds an exchange API key (DESIGN §3): exchange, network, key, secret (and OKX's passphrase), and
 * a key password typed twice that encrypts them on the server — the server never keeps it, so it
 * cannot be recovered. In simulator mode a helper fills a key the simulator accepts.
 */
export function ApiKeyForm({ submitLabel, pending, allowRemember, onSubmit, onCancel }: ApiKeyFormProps) {
  const form = useForm<ApiKeyFormInput, unknown, ApiKeyFormValues>({ resolver: zodResolver(apiKeyFormSchema), defaultValues: API_KEY_FORM_DEFAULTS });
  const { errors } = form.formState;
  const exchange = form.watch('exchange');
  const sim = useConfig().data?.marketData === 'sim';

  const submit = form.handleSubmit((values) => onSubmit(values, (error) => applyServerFieldErrors(error, form.setError, API_KEY_SERVER_FIELDS)));
  const fillSimKey = (c: { apiKey: string; apiSecret: string; passphrase?: string }) => {
    form.setValue('apiKey', c.apiKey, { shouldValidate: true });
    form.setValue('apiSecret', c.apiSecret, { shouldValidate: true });
    form.setValue('passphrase', c.passphrase ?? '', { shouldValidate: exchange === 'okx' });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="New API key">
      <Stack gap="md" maw={640}>
        <TextInput label="Name" description="How you will recognise this key" autoComplete="off" {...form.register('name')} error={errors.name?.message} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={form.control}
            name="exchange"
            render={({ field }) => (
              <Select
                label="Exchange"
                data={EXCHANGE_SELECT_DATA}
                allowDeselect={false}
                value={field.value}
                onChange={(v) => v && field.onChange(v)}
                onBlur={field.onBlur}
                error={errors.exchange?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="network"
            render={({ field }) => (
              <Select
                label="Network"
                data={NETWORK_SELECT_DATA}
                allowDeselect={false}
                value={field.value}
                onChange={(v) => v && field.onChange(v)}
                onBlur={field.onBlur}
                error={errors.network?.message}
              />
            )}
          />
        </SimpleGrid>
        {sim ? <SimKeyHelper exchange={exchange} onFill={fillSimKey} /> : null}
        <TextInput label="API key" autoComplete="off" spellCheck={false} {...form.register('apiKey')} error={errors.apiKey?.message} />
        <PasswordInput label="API secret" autoComplete="off" {...form.register('apiSecret')} error={errors.apiSecret?.message} />
        {exchange === 'okx' ? (
          <PasswordInput label="Passphrase" description="The passphrase you chose when creating the key on OKX" autoComplete="off" {...form.register('passphrase')} error={errors.passphrase?.message} />
        ) : null}
        <Alert variant="light" color="blue" icon={<IconLock size={18} />}>
          The key and secret are encrypted with a key password that only you know. The server never stores it: you will need it to trade with
          this key, and it cannot be recovered.
        </Alert>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <PasswordInput label="Key password" autoComplete="new-password" {...form.register('keyPassword')} error={errors.keyPassword?.message} />
          <PasswordInput label="Repeat key password" autoComplete="new-password" {...form.register('confirmKeyPassword')} error={errors.confirmKeyPassword?.message} />
        </SimpleGrid>
        {allowRemember ? (
          <Checkbox label="Remember password on this device" description="Stored in this browser only, for this account" {...form.register('remember')} />
        ) : null}
        <Group>
          <Button type="submit" loading={pending} disabled={pending}>
            {submitLabel}
          </Button>
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}

function SimKeyHelper({ exchange, onFill }: { exchange: ApiKeyFormInput['exchange']; onFill: (c: { apiKey: string; apiSecret: string; passphrase?: string }) => void }) {
  const generate = useCreateSimCredentials();
  const [withdraw, setWithdraw] = useState(false);
  return (
    <Alert variant="light" color="grape" icon={<IconFlask size={18} />} title="Simulated market">
      <Stack gap="xs">
        <Text size="sm">The simulator accepts generated keys only. Generate one to fill the key and secret.</Text>
        <Group gap="md">
          <Button size="xs" variant="light" color="grape" loading={generate.isPending} onClick={() => generate.mutate({ exchange, withdraw }, { onSuccess: onFill })}>
            Generate simulator key
          </Button>
          <Checkbox size="xs" label="with withdrawal permission" checked={withdraw} onChange={(e) => setWithdraw(e.currentTarget.checked)} />
        </Group>
      </Stack>
    </Alert>
  );
}
