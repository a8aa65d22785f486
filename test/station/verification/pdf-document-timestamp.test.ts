import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtomicOutputFile } from '../../../src/station/files/atomic-output-file.js';
import { x509 } from '../../../src/station/pki/x509.js';
import { appendDocumentTimestamp } from '../../../src/station/signing/pdf/pades-long-term.js';
import { verifyDocument } from '../../../src/station/verification/verify-document.js';
import { signPdf, usePadesFixture } from '../../support/signing/signing-pades-fixture.js';
import { minimalPdf } from '../../support/signing/signing-test-pdfs.js';
import { trustOf } from '../../support/verification/trust-of.js';

const f = usePadesFixture();

/** A signed one-page PDF saying `text`, with a document timestamp over it from the fixture's TSA. */
async function timestamped(name: string, text: string): Promise<string> {
  const input = join(f.dir, `${name}-in.pdf`);
  await writeFile(input, minimalPdf(text));
  const signed = join(f.dir, `${name}-signed.pdf`);
  await signPdf(f, input, signed, f.rsa);
  const output = await AtomicOutputFile.create(join(f.dir, `${name}.pdf`));
  await output.write(await readFile(signed));
  await appendDocumentTimestamp(output, f.tsa, 'SHA-256');
  return output.commit();
}

/** The hex /Contents of the last signature dictionary (the document timestamp): where it starts and how long it is. */
function lastContents(bytes: Buffer): { start: number; length: number } {
  const text = bytes.toString('latin1');
  const start = text.lastIndexOf('/Contents <') + '/Contents <'.length;
  return { start, length: text.indexOf('>', start) - start };
}

describe('a document timestamp whose token was copied from another file', () => {
  it('is failed on its own line (HASH_FAILURE) while the document takes the verdict of the signature it would have protected', async () => {
    const donor = await readFile(await timestamped('donor', 'Another document'));
    const target = await timestamped('target', 'The document under test');
    const bytes = await readFile(target);
    const from = lastContents(donor);
    const to = lastContents(bytes);
    const token = donor.toString('latin1', from.start, from.start + from.length).padEnd(to.length, '0').slice(0, to.length);
    bytes.write(token, to.start, 'latin1');
    await writeFile(target, bytes);

    const report = await verifyDocument(target, { trust: trustOf(new x509.X509Certificate(await readFile(f.rootPath, 'utf8'))), offline: true });
    const [signature, timestamp] = report.signatures;
    expect(timestamp).toMatchObject({ kind: 'RFC 3161 timestamp', verdict: { indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE' } });
    expect(signature).toMatchObject({ kind: 'PAdES', intact: true });
    expect(signature!.verdict.indication).not.toBe('TOTAL-FAILED');
    expect(report.indication).toBe(signature!.verdict.indication);
  });
});
