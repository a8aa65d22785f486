import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { StationError } from '../../src/core/errors/station-error.js';
import { PdfDocumentReader } from '../../src/station/signing/pdf/pdf-document-reader.js';
import { PdfRef } from '../../src/station/signing/pdf/pdf-object.js';
import { buildSignatureUpdate } from '../../src/station/signing/pdf/pdf-signature-update.js';
import { AsiceContainerReader } from '../../src/station/signing/asice/asice-container-reader.js';
import { HOSTILE_PDFS } from '../support/hostile-pdf.js';
import { minimalPdf } from '../support/signing-test-pdfs.js';
import { startTestStation, type TestStation } from '../support/test-station.js';

/**
 * Property: whatever bytes arrive, the parsers of untrusted input answer with the station's own 4xx error or a
 * result, never another exception (a 500) and never a hang. Seeds are committed so a CI failure replays exactly;
 * FUZZ_RUNS raises the number of cases for a longer local session.
 */
const SEED = 0x5157_2026;
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const TIME_LIMIT_MS = 20_000;

type Mutation = { kind: 'flip' | 'set' | 'cut' | 'insert' | 'delete' | 'duplicate'; at: number; byte: number; length: number };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('flip', 'set', 'cut', 'insert', 'delete', 'duplicate'),
  at: fc.nat(),
  byte: fc.integer({ min: 0, max: 255 }),
  length: fc.integer({ min: 1, max: 64 }),
});

function mutate(input: Buffer, mutations: readonly Mutation[]): Buffer {
  let bytes = Buffer.from(input);
  for (const { kind, at: rawAt, byte, length } of mutations) {
    if (bytes.length === 0) break;
    const at = rawAt % bytes.length;
    if (kind === 'flip') bytes[at] = bytes[at]! ^ (1 << (byte % 8));
    else if (kind === 'set') bytes[at] = byte;
    else if (kind === 'cut') bytes = bytes.subarray(0, at);
    else if (kind === 'insert') bytes = Buffer.concat([bytes.subarray(0, at), Buffer.alloc(length, byte), bytes.subarray(at)]);
    else if (kind === 'delete') bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + length)]);
    else bytes = Buffer.concat([bytes, bytes.subarray(at, at + length * 16)]);
  }
  return bytes;
}

/** Runs `work`; a StationError below 500 is the expected refusal, anything else fails the property. */
async function refusesCleanly(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof StationError) || error.status >= 500) throw error;
  }
}

let dir: string;
let caseNumber = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fuzz-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function asFile(bytes: Buffer, extension: string): Promise<string> {
  const path = join(dir, `case-${caseNumber++}.${extension}`);
  await writeFile(path, bytes);
  return path;
}

describe('fuzzing the parsers of untrusted input', () => {
  /** Mutated seeds (the minimal PDF and the hostile ones) opened by the reader, then handed to `use`. */
  const fuzzPdfs = (use: (reader: PdfDocumentReader) => Promise<unknown>) => {
    const seeds = [minimalPdf(), ...Object.values(HOSTILE_PDFS).map((make) => make())];
    return fc.assert(
      fc.asyncProperty(fc.constantFrom(...seeds.keys()), fc.array(mutation, { maxLength: 4 }), async (seed, mutations) => {
        const bytes = mutate(seeds[seed]!, mutations);
        const file = await open(await asFile(bytes, 'pdf'), 'r');
        try {
          await refusesCleanly(async () => use(await PdfDocumentReader.open(file, bytes.length)));
        } finally {
          await file.close();
        }
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS },
    );
  };

  it('PDF reader: mutated documents and the hostile seeds', async () => {
    await fuzzPdfs(async (reader) => {
      const root = reader.trailer.get('Root');
      if (root instanceof PdfRef) await reader.direct(root);
    });
  });

  it('visible signature update (page lookup, content scan for free space, placement): mutated documents', async () => {
    await fuzzPdfs((reader) => buildSignatureUpdate(reader, { signerName: 'Fuzz', time: new Date(0), visible: true, reason: 'Fuzz', contentsSize: 64 }));
  });

  it('ASiC-E reader: mutated containers', async () => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('application/vnd.etsi.asic-e+zip'), 'mimetype', { compress: false, forceDosTimestamp: true });
    zip.addBuffer(Buffer.from('a document to sign'.repeat(20)), 'a.txt');
    zip.addBuffer(
      Buffer.from(
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.etsi.asic-e+zip"/><manifest:file-entry manifest:full-path="a.txt" manifest:media-type="text/plain"/></manifest:manifest>',
      ),
      'META-INF/manifest.xml',
    );
    zip.end();
    const seedPath = join(dir, 'seed.asice');
    await pipeline(zip.outputStream, createWriteStream(seedPath));
    const seed = await (await import('node:fs/promises')).readFile(seedPath);
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (mutations) => {
        const path = await asFile(mutate(seed, mutations), 'asice');
        await refusesCleanly(async () => {
          const reader = await AsiceContainerReader.open(path);
          reader.close();
        });
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS },
    );
  });

  describe('JSON bodies over HTTP', () => {
    let station: TestStation;
    beforeAll(async () => {
      station = await startTestStation();
      await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: ['https://shop.example'] }, Buffer.from('shop-secret-0123456789'));
    });
    afterAll(() => station?.dispose());

    const endpoints = [
      '/api/signatures/prepare-files-for-signing',
      '/api/signatures/start-signing',
      '/api/signatures/id-signature/complete',
      '/api/signatures/signing-session/status',
      '/api/identity/shop/smartid/start',
    ];
    const shaped = fc.record(
      {
        client_id: fc.oneof(fc.constant('shop'), fc.string()),
        secret: fc.oneof(fc.constant('shop-secret-0123456789'), fc.string()),
        doc_id: fc.string(),
        container_type: fc.oneof(fc.constantFrom('pdf', 'asice'), fc.jsonValue()),
        files: fc.oneof(fc.array(fc.record({ fileName: fc.string(), mimeType: fc.string(), fileContent: fc.base64String() }), { maxLength: 3 }), fc.jsonValue()),
        certificate: fc.oneof(fc.base64String(), fc.jsonValue()),
        sign_type: fc.oneof(fc.constant('id-signature'), fc.string()),
      },
      { requiredKeys: [] },
    );

    it('answers any JSON with a result or a 4xx in the interface’s format, never a 500', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...endpoints), fc.oneof(shaped, fc.jsonValue()), async (endpoint, body) => {
          const response = await fetch(`${station.baseUrl}${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
          const answer = (await response.json()) as { status?: string };
          expect(response.status, `${endpoint} ${JSON.stringify(body)}`).toBeLessThan(500);
          if (response.status >= 400) expect(answer.status).toBe('error');
        }),
        { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS },
      );
    });
  });
});
