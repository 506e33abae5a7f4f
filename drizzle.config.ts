import { defineConfig } from 'drizzle-kit';

/** `npx drizzle-kit generate` writes server/db/migrations; openDatabase() applies them at start. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
