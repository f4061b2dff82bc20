import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../client';

/** `DELETE /v1/users/funded/{userId}` (admin): off the list; keys, settings and transactions stay. */
export async function removeFundedUser(userId: string): Promise<void> {
  await http.delete(`/v1/users/funded/${encodeURIComponent(userId)}`);
}

export function useRemoveFundedUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeFundedUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['funded-users'] }),
    meta: { errorMessage: 'Unable to remove funded user' },
  });
}
