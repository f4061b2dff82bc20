import fp from 'fastify-plugin';
import { EventBus } from '../services/events/bus';
import { postgresTransport, redisTransport } from '../services/events/transports';

declare module 'fastify' {
  interface FastifyInstance {
    /** What happened, told to every instance (services/events): key deleted, sessions ended... */
    events: EventBus;
  }
}

/**
 * `events`: the typed event bus (services/events) over PostgreSQL NOTIFY, and Redis pub/sub as well
 * when REDIS_URL is set. Other instances' events arrive once the app is ready (inject and listen both
 * make it ready); the listeners stop when it closes.
 */
export const eventsPlugin = fp<{ channel?: string }>(
  async (app, opts) => {
    const channel = opts.channel ?? 'ct_events';
    const events = new EventBus({
      db: app.db,
      log: app.log,
      transports: [postgresTransport(app.db, channel, app.log), ...(app.redis ? [redisTransport(app.redis, channel, app.log)] : [])],
    });
    app.decorate('events', events);
    app.authContext.events = events;
    app.addHook('onReady', () => events.start());
    app.addHook('onClose', () => events.stop());
  },
  { name: 'events', dependencies: ['core'] },
);
