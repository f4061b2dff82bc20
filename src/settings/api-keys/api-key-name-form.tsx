import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { patchApiKeyBodySchema, type PatchApiKeyBody } from '../../api/contracts/api-keys';
import { applyServerFieldErrors } from '../../ui/form-errors';

/** Renames a key (the only thing that changes on a stored key). */
export function ApiKeyNameForm({
  name,
  pending,
  onSubmit,
}: {
  name: string;
  pending: boolean;
  onSubmit: (name: string, onError: (error: unknown) => void) => void;
}) {
  const form = useForm<PatchApiKeyBody>({ resolver: zodResolver(patchApiKeyBodySchema), defaultValues: { name } });
  useEffect(() => form.reset({ name }), [form, name]);
  const submit = form.handleSubmit((v) => onSubmit(v.name, (error) => applyServerFieldErrors(error, form.setError, ['name'])));
  return (
    <form onSubmit={submit} noValidate aria-label="Rename API key">
      <Group align="flex-start" gap="sm">
        <TextInput label="Name" autoComplete="off" w={320} {...form.register('name')} error={form.formState.errors.name?.message} />
        <Button type="submit" mt={25} loading={pending} disabled={pending || !form.formState.isDirty}>
          Save name
        </Button>
      </Group>
    </form>
  );
}
