import type { ReactNode } from 'react';
import { useFeatureFlagMap } from '../../api/feature-flags/get-feature-flag-map';
import { FullAreaLoader } from '../../ui/full-area-loader';
import { MessageScreen } from '../../ui/message-screen';

/**
 * SPEC §2: nothing renders before the flag map: 'Loading data' while it loads, and a blocking
 * message if it cannot be loaded (after the query's retries).
 */
export function FeatureFlagsGate({ children }: { children: ReactNode }) {
  const { data, isPending } = useFeatureFlagMap();
  if (data) return <>{children}</>;
  if (isPending) return <FullAreaLoader description="Loading data" />;
  return <MessageScreen>Unable to load settings, please try refreshing the page.</MessageScreen>;
}
