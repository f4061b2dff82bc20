/**
 * Every admin-panel page of SPEC §2 below `/admin-panel`, with the title and one-line description
 * its placeholder shows until a later issue builds it. `{userId}`-style names are filled from the
 * route's params.
 */
export interface AdminPageSpec {
  path: string;
  title: string;
  description: string;
}

export const ADMIN_PAGES: readonly AdminPageSpec[] = [
  { path: 'users', title: 'Users', description: 'All users: search by email, change roles, open a user.' },
  { path: 'users-funded', title: 'Funded users', description: 'Users trading with firm-provided API keys, with their limits and keys.' },
  { path: 'users-funded/add-new', title: 'Add funded user', description: 'Add a user to the funded list.' },
  {
    path: 'users-funded/trade-settings/:userId',
    title: 'Trade settings',
    description: 'Trade limits the server enforces for user {userId}: risk per trade, position size, leverage, daily loss, symbols.',
  },
  { path: 'users-funded/api-keys-settings/:userId', title: 'API keys settings', description: 'The API keys of funded user {userId}.' },
  { path: 'users-funded/api-keys-settings/:userId/add-api-key', title: 'Add API key', description: 'Add an API key for funded user {userId}.' },
  { path: 'users-funded/api-keys-settings/:userId/:apiKeyId', title: 'Edit API key', description: 'Edit API key {apiKeyId} of funded user {userId}.' },
  {
    path: 'users-funded/api-keys-settings/:userId/:apiKeyId/transactions',
    title: 'Transactions',
    description: 'Deposits, withdrawals and profit shares recorded for API key {apiKeyId} of user {userId}.',
  },
  { path: 'invitations', title: 'Invitations', description: 'Invitation codes with their status: unused, used by whom, expired; revoke them.' },
  { path: 'invitations/generate', title: 'Generate invitations', description: 'Create invitation codes: count, expiry, optional email and role.' },
  { path: 'trading-volume', title: 'Trading volume', description: 'Trading volume per user, exchange and month from recorded fills.' },
  { path: 'maintenance', title: 'Maintenance', description: 'The maintenance message every user sees in the banner.' },
  { path: 'feature-flags', title: 'Feature flags', description: 'Turn product features on and off for everyone.' },
  { path: 'feature-flags/add-new', title: 'Add feature flag', description: 'Create a new feature flag.' },
  { path: 'referrals/:tab', title: 'Referrals', description: 'Referrals overview ({tab}): every referrer with referred volume and income.' },
  { path: 'referrals/user/:userId', title: 'Referrer Volume & Income Overview', description: 'Monthly referred volume and income of referrer {userId}, and income submission.' },
];

/** Replaces `{name}` with the route param of that name. */
export function fillParams(text: string, params: Readonly<Record<string, string | undefined>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
}
