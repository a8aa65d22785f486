// The station under benchmark, in its own process so its CPU time can be measured apart from the load generator:
// logging as `serve` does by default, its OIDC provider run once. Starts on 127.0.0.1:0 with a client allowed from
// 127.0.0.1, prints its TSA URL and root PEM path, and answers "cpu" messages with its CPU time (processCpu). With
// TSA_BENCH_PROFILE=<dir> it writes a CPU profile of the last timed run (between two "cpu" messages) there.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { x509 } from '../../../src/station/pki/x509.js';
import { startTestStation } from '../station/test-station.js';
import { serveDefaultLogger } from '../bench/serve-logger.js';
import { timedRunProfiler } from '../bench/timed-run-profiler.js';
import { processCpu } from '../bench/process-cpu.js';
import { answerBenchMessages } from '../bench/answer-bench-messages.js';

const station = await startTestStation({}, { logger: serveDefaultLogger() });
await station.data.clients.upsert({ clientId: 'bench', allowedIps: ['127.0.0.1'] });
// A station in use has served a login: its OIDC provider has run once, as it has on a user's machine (on Node
// before 24 that can change what every later request costs, see provider-context-scope.ts).
const discovery = await fetch(`${station.baseUrl}/.well-known/openid-configuration`);
if (!discovery.ok) throw new Error(`the station's OIDC discovery answered ${discovery.status}`);
const rootPem = join(station.dataDir, 'root.pem');
await writeFile(rootPem, new x509.X509Certificate(Uint8Array.from(station.tsa.certificates.at(-1)!)).toString('pem'));
const profiler = timedRunProfiler(process.env.TSA_BENCH_PROFILE || undefined, 'tsa.cpuprofile');
answerBenchMessages({ cpu: processCpu, stop: () => station.dispose(), profiler });
process.send?.({ ready: { url: `${station.baseUrl}/api/timestamp/bench`, rootPem } });
