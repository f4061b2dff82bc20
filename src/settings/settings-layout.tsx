import { IconAdjustments, IconChartPie, IconKey, IconUser } from '@tabler/icons-react';
import { useMe } from '../api/users/get-me';
import { SectionLayout, type SectionLink } from '../ui/section-layout';

const LINKS: readonly SectionLink[] = [
  { to: 'account', label: 'Account', icon: IconUser },
  { to: 'api-keys', label: 'API keys', icon: IconKey },
  { to: 'preferences', label: 'Preferences', icon: IconAdjustments },
];
const REFERRALS: SectionLink = { to: 'referrals', label: 'Referrals', icon: IconChartPie };

/** `/settings/*`: the section menu beside the routed settings page; Referrals for admins and referrers. */
export function SettingsLayout() {
  const { data: user } = useMe();
  const referrals = user?.role === 'admin' || user?.role === 'referrer';
  return <SectionLayout title="Settings" links={referrals ? [...LINKS, REFERRALS] : LINKS} />;
}
