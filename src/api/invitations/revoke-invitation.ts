import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invitationSchema, type Invitation } from '../contracts/invitations';
import { http } from '../client';

/** `DELETE /v1/invitations/{id}` (admin): revokes the code. */
export async function revokeInvitation(id: string): Promise<Invitation> {
  const { data } = await http.delete<unknown>(`/v1/invitations/${encodeURIComponent(id)}`);
  return invitationSchema.parse(data);
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['invitations'] }),
    meta: { errorMessage: 'Unable to revoke invitation' },
  });
}
