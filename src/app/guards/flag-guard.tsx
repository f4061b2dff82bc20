import type { ReactNode } from 'react';
import type { FeatureFlagKey } from '../../api/contracts/feature-flags';
import { useFeatureFlag } from '../../api/feature-flags/get-feature-flag-map';
import { NotFoundScreen } from '../../ui/not-found-screen';

/** A page that exists only while its feature flag is on; otherwise it is not found. */
export function FlagGuard({ flag, children }: { flag: FeatureFlagKey; children: ReactNode }) {
  return useFeatureFlag(flag) ? <>{children}</> : <NotFoundScreen />;
}
