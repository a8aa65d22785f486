// The trusted-list part of `npm run bench verify`: a realistic list of lists (30 national lists of 60 trust services
// each, every service with a certificate and a status history), made from our own keys and signed by xmlsec1.
// Measures (1) importing and verifying all 31 lists (target < 2 s), (2) what the station pays at start for the
// cached lists (target < 50 ms and < 20 MB; the lists themselves are parsed on first verify), and (3) that first
// verify's parse of every cached list, each in a fresh process so time and memory are its own.
import type { VerifyBenchPart } from './verify-bench-part.js';
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestCa } from '../../pki/test-pki.js';
import { createListSigner, lotlXml, nationalListXml, QUALIFIER, SERVICE_TYPE, signWithXmlsec, STATUS, type ServiceSpec } from '../../verification/trusted-list-xml.js';

const TERRITORIES = 30;
const SERVICES = 60;
const TARGET = { importMs: 2000, startMs: 50, startMb: 20 };

interface ChildResult {
  ms: number;
  /** CPU time of the step: on a machine shared with other work, wall time overstates it. */
  cpuMs: number;
  rssMb: number;
  anchors?: number;
}

/** Runs in the child: one measured step against the data directory made by the parent. */
async function child(step: string, dataDir: string, listsDir: string, signerPem: string): Promise<ChildResult> {
  // The modules are loaded first, as in a running station: what is measured is the step's own work.
  const [{ ManagedTrust }, { loadTrustSource }] = await Promise.all([import('../../../../src/station/verification/trusted-lists/managed-trust.js'), import('../../../../src/station/verification/load-trust-source.js')]);
  const before = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const measured = (extra: Partial<ChildResult> = {}): ChildResult => {
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, rssMb: (process.memoryUsage().rss - before) / 1048576, ...extra };
  };
  if (step === 'import') {
    const result = await (await ManagedTrust.open(dataDir)).updater.importPath(listsDir, [signerPem]);
    if (result.lists.some((list) => list.outcome === 'refused')) throw new Error(JSON.stringify(result.lists.filter((l) => l.outcome === 'refused')));
    return measured();
  }
  const trust = await loadTrustSource({ identity: { trustedIssuers: [] }, dataDir }, []);
  if (step === 'start') return measured();
  const anchors = await trust.anchorsAt('CA', new Date());
  return measured({ anchors: anchors.length });
}

function inChild(step: string, dataDir: string, listsDir: string, signerPem: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const worker = fork(fileURLToPath(import.meta.url), ['--child', step, dataDir, listsDir, signerPem], { execArgv: ['--import', 'tsx'] });
    worker.once('message', (message) => resolve(message as ChildResult));
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`bench child ${step} exited ${code}`)));
  });
}

/** Makes the lists and measures: each figure beside its target; held when all are met. */
async function runTrustedListsPart(): Promise<{ lines: string[]; held: boolean }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-trusted-lists-'));
  try {
    const listsDir = join(dir, 'lists');
    await mkdir(listsDir);
    const lotlSigner = await createListSigner('Bench LOTL signer');
    const cas = await Promise.all(Array.from({ length: 8 }, (_, i) => createTestCa(`CN=Bench CA ${i},O=Signing Station Bench,C=EE`)));
    const pointers = [];
    let bytes = 0;
    for (let t = 0; t < TERRITORIES; t++) {
      const territory = `Q${String.fromCharCode(65 + (t % 26))}${t >= 26 ? t - 25 : ''}`.slice(0, 2) + (t >= 26 ? String(t) : '');
      const signer = await createListSigner(`Bench list signer ${territory}`);
      const services: ServiceSpec[] = Array.from({ length: SERVICES }, (_, s) => ({
        provider: `Provider ${territory}-${Math.floor(s / 4)}`,
        name: `Service ${territory}-${s}`,
        certificates: [cas[(t + s) % cas.length]!.der],
        periods: [
          { type: s % 5 === 0 ? SERVICE_TYPE.tsaQtst : SERVICE_TYPE.caQc, status: s % 7 === 0 ? STATUS.withdrawn : STATUS.granted, since: new Date('2024-01-01'), qualifiers: [QUALIFIER.withSscd, QUALIFIER.forESig] },
          { type: SERVICE_TYPE.caQc, status: STATUS.granted, since: new Date('2016-07-01') },
        ],
      }));
      const xml = await signWithXmlsec(nationalListXml({ territory, sequence: 40 + t }, services), signer);
      bytes += xml.length;
      await writeFile(join(listsDir, `tl-${territory}.xml`), xml);
      pointers.push({ territory, location: `https://lists.invalid/${territory}.xml`, certificates: [signer.der] });
    }
    const lotl = await signWithXmlsec(lotlXml({ territory: 'ZZ', sequence: 300 }, pointers), lotlSigner);
    await writeFile(join(listsDir, 'lotl.xml'), lotl);
    const dataDir = join(dir, 'data');
    const imported = await inChild('import', dataDir, listsDir, lotlSigner.certPem);
    const start = await inChild('start', dataDir, listsDir, lotlSigner.certPem);
    const first = await inChild('first-verify', dataDir, listsDir, lotlSigner.certPem);
    const lines: string[] = [];
    const mb = (value: number): string => value.toFixed(1);
    lines.push(`trusted lists: ${TERRITORIES} national lists of ${SERVICES} services (${mb((bytes + lotl.length) / 1048576)} MB of XML) and their list of lists`);
    lines.push(`  import, parse and verify all: ${imported.ms.toFixed(0)} ms, CPU ${imported.cpuMs.toFixed(0)} ms (target < ${TARGET.importMs} ms), RSS +${mb(imported.rssMb)} MB`);
    lines.push(`  at start (trust source over the cache): ${start.ms.toFixed(1)} ms, CPU ${start.cpuMs.toFixed(1)} ms (target < ${TARGET.startMs} ms), RSS +${mb(start.rssMb)} MB (target < ${TARGET.startMb} MB)`);
    lines.push(`  first verify (parse every cached list, the loader trust source included): ${first.ms.toFixed(0)} ms, CPU ${first.cpuMs.toFixed(0)} ms, RSS +${mb(first.rssMb)} MB, ${first.anchors} CA anchors`);
    return { lines, held: imported.cpuMs < TARGET.importMs && start.cpuMs < TARGET.startMs && start.rssMb < TARGET.startMb };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const trustedListsPart: VerifyBenchPart = { name: 'trusted lists: import, start, first verify', run: runTrustedListsPart };

if (process.argv[2] === '--child') {
  const [step, dataDir, listsDir, signerPem] = process.argv.slice(3) as [string, string, string, string];
  void child(step, dataDir, listsDir, signerPem).then(
    (result) => process.send!(result, () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
