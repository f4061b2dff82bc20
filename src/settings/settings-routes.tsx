import { lazy } from 'react';

// Each page is its own lazy chunk (DESIGN §7); the route table places them (referrals behind its role guard).
export const PreferencesPage = lazy(async () => ({ default: (await import('./preferences/preferences-page')).PreferencesPage }));
export const ReferralsSettingsPage = lazy(async () => ({ default: (await import('./referrals/referrals-page')).ReferralsSettingsPage }));
