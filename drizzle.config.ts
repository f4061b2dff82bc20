import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes SQL migrations for schema changes into server/drizzle/ (committed).
// The same SQL runs on PGlite and on PostgreSQL, at every server start and in every test database.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./server/db/schema.ts', './server/db/schema-*.ts'],
  out: './server/drizzle',
});
