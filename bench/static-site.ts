// The hello-world page's server for the Lighthouse baseline: the same Fastify, static files and compression
// as the app's server, without the app. Started as its own process by lighthouse.ts.
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
await app.register(compress, { global: true, threshold: 1024 });
await app.register(fastifyStatic, { root: process.env.SITE_DIR ?? '.', index: ['index.html'] });
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
