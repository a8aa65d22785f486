// The reference under `npm run bench startup`: a Fastify server with one route and a pino logger at serve's level,
// bundled as the CLI is, and nothing of the station. Its start is what any Fastify server pays on this runtime
// before its own code; the bench prints it beside serve's so that the part that is the station's can be read.
import Fastify from 'fastify';
import { pino } from 'pino';

const app = Fastify({ loggerInstance: pino({ level: 'info' }, pino.destination(2)) });
app.get('/api/health', async () => ({ status: 'OK' }));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${url}`);
