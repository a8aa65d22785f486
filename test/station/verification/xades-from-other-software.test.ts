import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDocument } from '../../../src/station/verification/verify-document.js';
import { createTestCa, createTestSigner, type TestCa } from '../../support/pki/test-pki.js';
import { trustOf } from '../../support/verification/trust-of.js';
import { xmlsecAsice, type XmlsecAsiceOptions } from '../../support/verification/xmlsec-asice.js';

let dir: string;
let ca: TestCa;
let signer: XmlsecAsiceOptions['signer'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'c14n11-'));
  ca = await createTestCa();
  signer = await createTestSigner(ca, 'CN=Reinis Ozols,O=Signing Station Tests,C=LV', 'RSA-2048');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const verify = async (options: Omit<XmlsecAsiceOptions, 'dir' | 'signer'>) => (await verifyDocument(await xmlsecAsice({ dir, signer, ...options }), { trust: trustOf(ca.certificate) })).signatures[0]!;

describe('XAdES canonicalised with Canonical XML 1.1, in containers as other software writes them', () => {
  it('is intact (xmlsec1 agrees), and a changed data file is still a HASH_FAILURE', async () => {
    expect(await verify({ name: 'intact', signedNote: 'the agreed text', note: 'the agreed text' })).toMatchObject({ kind: 'XAdES', intact: true, verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
    expect((await verify({ name: 'changed', signedNote: 'the agreed text', note: 'another text' })).verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE' });
  });

  it('is INDETERMINATE/SIGNED_DATA_NOT_FOUND, not failed, when the file it signs is not in the container', async () => {
    const signature = await verify({ name: 'renamed', signedNote: 'the agreed text', note: 'the agreed text', dataName: 'renamed.txt' });
    expect(signature.verdict).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'SIGNED_DATA_NOT_FOUND', reason: 'the signed file note.txt is not in the container' });
  });

  it('reads a container whose mimetype is compressed, last or missing, and a BDOC 1.0 one', async () => {
    for (const [name, mimetype, mediaType] of [
      ['compressed', 'compressed', undefined],
      ['last', 'last', undefined],
      ['none', 'none', undefined],
      ['bdoc', 'compressed', 'application/vnd.bdoc-1.0'],
    ] as const) {
      const signature = await verify({ name, signedNote: 'the agreed text', note: 'the agreed text', mimetype, ...(mediaType ? { mediaType } : {}) });
      expect(signature.verdict, name).toMatchObject({ indication: 'TOTAL-PASSED' });
    }
  });
});
