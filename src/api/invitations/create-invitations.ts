import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createdInvitationsSchema, createInvitationsBodySchema, type CreateInvitationsBody, type Invitation } from '../contracts/invitations';
import { http } from '../client';

/** `POST /v1/invitations` (admin): `count` codes with the same options. */
export async function createInvitations(body: CreateInvitationsBody): Promise<Invitation[]> {
  createInvitationsBodySchema.parse(body);
  const { data } = await http.post<unknown>('/v1/invitations', body);
  return createdInvitationsSchema.parse(data).data;
}

export function useCreateInvitations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvitations,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['invitations'] }),
    meta: { errorMessage: 'Unable to generate invitations' },
  });
}
