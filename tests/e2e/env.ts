/** Shared by the Playwright config, the e2e server script's caller and the specs. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8090);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'admin-e2e-password' } as const;
