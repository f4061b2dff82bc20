import fp from 'fastify-plugin';
import { alertRoutes } from '../routes/v1/alerts';
import { appStreamRoutes, type AppStreamOptions } from '../routes/v1/app-stream';
import { authRoutes } from '../routes/v1/auth';
import { configRoutes } from '../routes/v1/config';
import { featureFlagRoutes } from '../routes/v1/feature-flags';
import { healthRoutes } from '../routes/v1/health';
import { invitationRoutes } from '../routes/v1/invitations';
import { maintenanceRoutes } from '../routes/v1/maintenance';
import { notificationRoutes } from '../routes/v1/notifications';
import { referralRoutes } from '../routes/v1/referrals';
import { settingsRoutes } from '../routes/v1/settings';
import { fillRoutes, tradingVolumeRoutes } from '../routes/v1/trading-volume';
import { userAdminRoutes } from '../routes/v1/user-admin';
import { userRoutes } from '../routes/v1/users';

export type { AppStreamOptions };

/**
 * `accounts`: the product's own resources under `/v1` — config, health, auth, users and their
 * settings, feature flags, maintenance, invitations, referrals, trading volume and fills, alerts,
 * notifications and the app's push channel `/v1/stream` (SPEC §7, issue 26).
 */
export const accountsPlugin = fp<{ appStream?: AppStreamOptions }>(
  async (app, opts) => {
    await app.register(configRoutes, { prefix: '/v1' });
    await app.register(healthRoutes, { prefix: '/v1' });
    await app.register(authRoutes, { prefix: '/v1/auth' });
    await app.register(userRoutes, { prefix: '/v1/users' });
    await app.register(settingsRoutes, { prefix: '/v1/users' });
    await app.register(featureFlagRoutes, { prefix: '/v1/feature-flags' });
    await app.register(maintenanceRoutes, { prefix: '/v1/maintenance' });
    await app.register(userAdminRoutes, { prefix: '/v1/users' });
    await app.register(invitationRoutes, { prefix: '/v1/invitations' });
    await app.register(referralRoutes, { prefix: '/v1/referrals' });
    await app.register(tradingVolumeRoutes, { prefix: '/v1/trading-volume' });
    await app.register(fillRoutes, { prefix: '/v1/fills' });
    await app.register(alertRoutes, { prefix: '/v1/alerts' });
    await app.register(notificationRoutes, { prefix: '/v1/notifications' });
    await app.register(appStreamRoutes, { prefix: '/v1', ...opts.appStream });
  },
  { name: 'accounts', dependencies: ['core', 'http', 'events', 'docs'] },
);
