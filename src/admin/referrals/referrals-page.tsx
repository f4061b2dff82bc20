import { Stack, Tabs, Title } from '@mantine/core';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { usePageTitle } from '../../ui/use-page-title';
import { ExchangeTotalsTab } from './exchange-totals-tab';
import { ReferrersTab } from './referrers-tab';

export const REFERRAL_TABS = { overview: 'Referrers', 'exchange-totals': 'Exchange totals' } as const;
type Tab = keyof typeof REFERRAL_TABS;
const isTab = (tab: string | undefined): tab is Tab => tab !== undefined && tab in REFERRAL_TABS;

/**
 * `/admin-panel/referrals/{tab}`: `overview` lists every referrer (each opens the referrer user
 * page); `exchange-totals` holds the exchanges' monthly volume and income that the referrer page
 * compares against (entered by hand or imported).
 */
export function ReferralsPage() {
  const { tab } = useParams();
  const navigate = useNavigate();
  usePageTitle(isTab(tab) ? `Referrals: ${REFERRAL_TABS[tab]}` : 'Referrals');
  if (!isTab(tab)) return <Navigate to="/admin-panel/referrals/overview" replace />;
  return (
    <Stack gap="lg" p="lg">
      <Title order={2}>Referrals</Title>
      <Tabs value={tab} onChange={(next) => next && navigate(`/admin-panel/referrals/${next}`)} keepMounted={false}>
        <Tabs.List>
          {Object.entries(REFERRAL_TABS).map(([value, label]) => (
            <Tabs.Tab key={value} value={value}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="overview" pt="md">
          <ReferrersTab />
        </Tabs.Panel>
        <Tabs.Panel value="exchange-totals" pt="md">
          <ExchangeTotalsTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
