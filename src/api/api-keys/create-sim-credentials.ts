import { useMutation } from '@tanstack/react-query';
import { simCredentialsBodySchema, simCredentialsSchema, type SimCredentials, type SimCredentialsBody } from '../contracts/api-keys';
import { http } from '../client';

/** `POST /v1/api-keys/sim-credentials` (simulator mode only): a key and secret the simulator accepts. */
export async function createSimCredentials(body: SimCredentialsBody): Promise<SimCredentials> {
  const { data } = await http.post<unknown>('/v1/api-keys/sim-credentials', simCredentialsBodySchema.parse(body));
  return simCredentialsSchema.parse(data);
}

export function useCreateSimCredentials() {
  return useMutation({ mutationFn: createSimCredentials, meta: { errorMessage: 'Unable to generate a simulator key' } });
}
