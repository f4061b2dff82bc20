import { Badge } from '@mantine/core';
import type { InvitationStatus } from '../../api/contracts/invitations';

const COLORS: Record<InvitationStatus, string> = { unused: 'teal', used: 'blue', expired: 'gray', revoked: 'red' };

export function InvitationStatusBadge({ status }: { status: InvitationStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light">
      {status}
    </Badge>
  );
}
