import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addFundedUserBodySchema, fundedUserSchema, type AddFundedUserBody, type FundedUser } from '../contracts/funded-users';
import { http } from '../client';

/** `POST /v1/users/funded` (admin): 409 when the user is already funded. */
export async function addFundedUser(body: AddFundedUserBody): Promise<FundedUser> {
  const { data } = await http.post<unknown>('/v1/users/funded', addFundedUserBodySchema.parse(body));
  return fundedUserSchema.parse(data);
}

export function useAddFundedUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addFundedUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['funded-users'] }),
    meta: { errorMessage: 'Unable to add funded user' },
  });
}
