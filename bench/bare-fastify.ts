// The baseline: a bare Fastify JSON route, no database, no auth. Started as its own process by run.ts.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/echo', async (request) => ({ status: 'accepted', body: request.body }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
