/**
 * Where the top bar's external links go. SPEC §2 names the links but not their targets; a deployment
 * sets its own at build time (`VITE_REPORT_BUG_URL`, `VITE_COMMUNITY_URL`, `VITE_HELP_URL`).
 */
const env = import.meta.env as Record<string, string | undefined>;

export const REPORT_BUG_URL = env.VITE_REPORT_BUG_URL || 'https://github.com/crypto-terminal/crypto-terminal/issues/new';
export const COMMUNITY_URL = env.VITE_COMMUNITY_URL || 'https://t.me/crypto_terminal';
export const HELP_URL = env.VITE_HELP_URL || 'https://github.com/crypto-terminal/crypto-terminal#readme';
