// Shared setup for the PAdES tests: a test root, RSA and ECDSA signers, the openssl reference TSA, an NSS database
// trusting the root for pdfsig; and the one-call "every independent validator agrees" check.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { PadesEngine } from '../../../src/station/signing/pades-engine.js';
import { softKeySigner } from '../../../src/station/signing/soft-key-signer.js';
import type { PrepareOptions } from '../../../src/station/signing/signing-options.js';
import type { TimestampClient } from '../../../src/station/tsa/timestamp-client.js';
import { createOpensslTsa, type OpensslTsa } from '../tsa/openssl-tsa.js';
import { bouncyCastleCheck, cmsParts, createNssDb, embeddedSignatures, opensslCmsVerify, opensslTsVerify, pdfsig, qpdfCheck } from './signing-validators.js';
import { createTestCa, createTestSigner } from '../pki/test-pki.js';

export type TestSigner = Awaited<ReturnType<typeof createTestSigner>>;

export interface PadesFixture {
  dir: string;
  rootPath: string;
  nss: string;
  tsa: OpensslTsa;
  rsa: TestSigner;
  ec: TestSigner;
  other: TestSigner;
}

/** Registers beforeAll/afterAll; the returned object is filled before the first test runs. */
export function usePadesFixture(): PadesFixture {
  const f = {} as PadesFixture;
  beforeAll(async () => {
    f.dir = await mkdtemp(join(tmpdir(), 'pades-test-'));
    const ca = await createTestCa();
    f.rootPath = join(f.dir, 'root.pem');
    await writeFile(f.rootPath, ca.pem);
    [f.rsa, f.ec, f.other, f.tsa, f.nss] = await Promise.all([
      createTestSigner(ca, 'CN=Mari Mägi,O=Signing Station Tests,C=EE', 'RSA-2048'),
      createTestSigner(ca, 'CN=Jaan Tamm,O=Signing Station Tests,C=EE', 'P-256'),
      createTestSigner(ca, 'CN=Poppler Signer,O=Signing Station Tests,C=EE', 'RSA-2048'),
      createOpensslTsa(f.dir),
      createNssDb(join(f.dir, 'nss'), ca.pem),
    ]);
  });
  afterAll(async () => {
    await rm(f.dir, { recursive: true, force: true });
  });
  return f;
}

/** prepare -> soft-key signature over the returned hash -> finish (with the openssl TSA unless `timestamp: null`). */
export async function signPdf(
  f: PadesFixture,
  input: string,
  output: string,
  signer: TestSigner,
  options: Pick<PrepareOptions, 'reason' | 'visible' | 'page' | 'rect' | 'timeZone' | 'signerName' | 'time' | 'stampLanguage'> & { timestamp?: TimestampClient | null } = {},
) {
  const { timestamp, ...prepareOptions } = options;
  const prepared = await PadesEngine.prepare(input, { certificate: signer.der, ...prepareOptions });
  const signature = await softKeySigner(signer.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), prepared.digestAlgorithm);
  const timestampClient = timestamp === null ? undefined : (timestamp ?? f.tsa);
  // Through JSON, as the HTTP layer keeps it between the two requests.
  const state = JSON.parse(JSON.stringify(prepared.state)) as typeof prepared.state;
  await PadesEngine.finish(state, signature, { outputPath: output, ...(timestampClient ? { timestampClient } : {}) });
  return prepared;
}

/** Every independent validator over every signature of `file`; the last one must cover the whole file. */
export async function expectAllValid(f: PadesFixture, file: string, count: number, timestamped = true) {
  const report = await pdfsig(f.nss, file);
  expect(report.signatures, report.output).toHaveLength(count);
  for (const s of report.signatures) {
    expect(s.valid, s.text).toBe(true);
    expect(s.subFilter).toBe('ETSI.CAdES.detached');
  }
  expect(report.signatures.at(-1)!.totalDocumentSigned).toBe(true);
  expect(report.signatures.at(-1)!.trusted, report.output).toBe(true);
  const structure = await qpdfCheck(file);
  expect(structure.code, structure.stdout + structure.stderr).toBe(0);
  expect(structure.stdout + structure.stderr).toContain('No syntax or stream encoding errors found');
  expect(structure.stdout + structure.stderr).not.toContain('WARNING');
  const pdf = await readFile(file);
  const embedded = embeddedSignatures(pdf);
  expect(embedded).toHaveLength(count);
  for (const e of embedded) {
    const cms = await opensslCmsVerify(e.cms, e.signedContent, f.rootPath);
    expect(cms.code, cms.stderr).toBe(0);
    const parts = cmsParts(e.cms);
    expect(parts.signedAttributeTypes).not.toContain('1.2.840.113549.1.9.5');
    const bc = await bouncyCastleCheck(e.cms, e.signedContent, f.rootPath, timestamped ? f.tsa.rootPath : undefined);
    expect(bc.code, bc.stdout + bc.stderr).toBe(0);
    if (timestamped) {
      const ts = await opensslTsVerify(parts.signatureValue, parts.timestampToken!, f.tsa.rootPath);
      expect(ts.code, ts.stdout + ts.stderr).toBe(0);
    } else {
      expect(parts.timestampToken).toBeUndefined();
    }
  }
  return { report, pdf, embedded };
}

