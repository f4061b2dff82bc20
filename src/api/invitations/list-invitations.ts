import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { invitationsPageSchema, type InvitationsPage, type InvitationStatus } from '../contracts/invitations';
import { http } from '../client';

export interface InvitationsFilter {
  status?: InvitationStatus;
}

export const invitationsQueryKey = (f: InvitationsFilter = {}) => ['invitations', 'list', f] as const;

/** `GET /v1/invitations` (admin): one page, newest first. */
export async function listInvitations(f: InvitationsFilter, cursor?: string): Promise<InvitationsPage> {
  const params: Record<string, string> = {};
  if (f.status) params.status = f.status;
  if (cursor) params.cursor = cursor;
  const { data } = await http.get<unknown>('/v1/invitations', { params });
  return invitationsPageSchema.parse(data);
}

export const invitationsQueryOptions = (f: InvitationsFilter = {}) =>
  infiniteQueryOptions({
    queryKey: invitationsQueryKey(f),
    queryFn: ({ pageParam }) => listInvitations(f, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.meta.nextCursor,
    meta: { errorMessage: 'Unable to fetch invitations' },
  });

export function useInvitations(f: InvitationsFilter = {}) {
  return useInfiniteQuery({ ...invitationsQueryOptions(f), placeholderData: keepPreviousData });
}
