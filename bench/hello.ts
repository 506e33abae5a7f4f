/**
 * The baseline of the bench: a bare Fastify hello-world on this machine, started like the real
 * server (node --import tsx) so that the ratio of the two shows what the portal itself costs.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

const stop = () => void app.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

await app.listen({ host: process.env.HOST || '127.0.0.1', port: Number(process.env.PORT || 3001) });
