import { IconChartBar, IconCoin, IconFlag, IconMail, IconTool, IconUsers, IconWallet } from '@tabler/icons-react';
import { SectionLayout, type SectionLink } from '../ui/section-layout';

const LINKS: readonly SectionLink[] = [
  { to: 'users', label: 'Users', icon: IconUsers },
  { to: 'users-funded', label: 'Funded users', icon: IconWallet },
  { to: 'invitations', label: 'Invitations', icon: IconMail },
  { to: 'trading-volume', label: 'Trading volume', icon: IconChartBar },
  { to: 'referrals/overview', label: 'Referrals', icon: IconCoin },
  { to: 'maintenance', label: 'Maintenance', icon: IconTool },
  { to: 'feature-flags', label: 'Feature flags', icon: IconFlag },
];

/** `/admin-panel/*` (admins only; the app's role guard wraps it): section menu beside the page. */
export function AdminLayout() {
  return <SectionLayout title="Admin panel" links={LINKS} />;
}
