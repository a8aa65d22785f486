// The floor under `npm run bench tsa`: node:http with none of the station's code. Each request's body is signed
// once with RSA-2048 on the thread pool (crypto.sign's callback form, as the station signs), then the same reply
// bytes are sent for every request (argv[2], a token the station issued). Its CPU per request is what any
// node:http server that signs per request pays on this machine; the bench prints it beside the station's, so the
// difference is the station's own. Answers "cpu" messages with its CPU time (processCpu), as the station's bench server,
// and with TSA_BENCH_PROFILE=<dir> writes a CPU profile of its last timed run there too (floor.cpuprofile).
import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { processCpu } from '../bench/process-cpu.js';
import { answerBenchMessages } from '../bench/answer-bench-messages.js';
import { timedRunProfiler } from '../bench/timed-run-profiler.js';

const reply = readFileSync(process.argv[2]!);
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    sign('sha256', Buffer.concat(chunks), privateKey, (error) => {
      if (error) return response.writeHead(500).end();
      response.writeHead(200, { 'content-type': 'application/timestamp-reply', 'content-length': reply.length }).end(reply);
    });
  });
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the floor server has no address');
  process.send?.({ ready: { url: `http://127.0.0.1:${address.port}/` } });
});
answerBenchMessages({
  cpu: processCpu,
  profiler: timedRunProfiler(process.env.TSA_BENCH_PROFILE || undefined, 'floor.cpuprofile'),
  stop: () =>
    new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    }),
});
