import { z } from 'zod';
import { apiKeyNameSchema, keyPasswordSchema, type CreateApiKeyBody } from '../../api/contracts/api-keys';
import { exchangeIdSchema, networkSchema } from '../../api/contracts/common';

/**
 * The add-key form: the contract's fields plus the key password typed twice and "remember on this
 * device". The passphrase field exists only for OKX.
 */
export const apiKeyFormSchema = z
  .object({
    name: apiKeyNameSchema,
    exchange: exchangeIdSchema,
    network: networkSchema,
    apiKey: z.string().trim().min(1, 'Enter the API key').max(256, 'API key is too long'),
    apiSecret: z.string().trim().min(1, 'Enter the API secret').max(512, 'API secret is too long'),
    passphrase: z.string().max(128, 'Passphrase is too long'),
    keyPassword: keyPasswordSchema,
    confirmKeyPassword: z.string().min(1, 'Repeat the key password'),
    remember: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.keyPassword !== v.confirmKeyPassword) ctx.addIssue({ code: 'custom', path: ['confirmKeyPassword'], message: 'Key passwords do not match' });
    if (v.exchange === 'okx' && !v.passphrase) ctx.addIssue({ code: 'custom', path: ['passphrase'], message: 'OKX keys need their passphrase' });
  });
export type ApiKeyFormInput = z.input<typeof apiKeyFormSchema>;
export type ApiKeyFormValues = z.output<typeof apiKeyFormSchema>;

export const API_KEY_FORM_DEFAULTS: ApiKeyFormInput = {
  name: '',
  exchange: 'binance',
  network: 'MAINNET',
  apiKey: '',
  apiSecret: '',
  passphrase: '',
  keyPassword: '',
  confirmKeyPassword: '',
  remember: false,
};

/** What is sent: no confirmation, no remember flag, a passphrase only for OKX. */
export function toCreateApiKeyBody(v: ApiKeyFormValues): CreateApiKeyBody {
  return {
    name: v.name,
    exchange: v.exchange,
    network: v.network,
    apiKey: v.apiKey,
    apiSecret: v.apiSecret,
    ...(v.exchange === 'okx' ? { passphrase: v.passphrase } : {}),
    keyPassword: v.keyPassword,
  };
}

/** The server's field names that map onto the form's fields. */
export const API_KEY_SERVER_FIELDS = ['name', 'exchange', 'network', 'apiKey', 'apiSecret', 'passphrase', 'keyPassword'] as const;
