// `verify --json` and `--report` list a container's files with the signatures covering each: a container signed by
// one signer over two files, a file added, a second signer over all three, then a file no signature names.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { documentVerificationSchema } from '../../src/core/schemas/verification-report.js';
import { usePadesFixture } from '../support/signing/signing-pades-fixture.js';
import { extractZip } from '../support/signing/signing-zip-extract.js';
import { runCli } from '../support/station/run-cli.js';
import { stationAsice } from '../support/verification/station-asice.js';
import { writeAsicZip } from '../support/verification/write-asic-zip.js';

const f = usePadesFixture();
const VR = 'http://uri.etsi.org/19102/v1.2.1#';

/** `container` repacked with one more file at its end, as another program might add it. */
async function withFileAdded(container: string, name: string, text: string, output: string): Promise<string> {
  const unzipped = `${output}.d`;
  const names = await extractZip(container, unzipped);
  return writeAsicZip(output, [...(await Promise.all(names.map(async (entry) => [entry, await readFile(join(unzipped, entry))] as const))), [name, Buffer.from(text)]]);
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('verify: a container’s files and the signatures covering each', () => {
  it('lists name, size, SHA-256 and covering signatures in --json, and the same in the XML report', async () => {
    const texts = { 'note.txt': 'the agreed text', 'annex.txt': 'annex one', 'late.txt': 'added before the second signature', 'unsigned.txt': 'added after both' };
    await writeFile(join(f.dir, 'note.txt'), texts['note.txt']);
    await writeFile(join(f.dir, 'annex.txt'), texts['annex.txt']);
    const first = await stationAsice(
      [
        { path: join(f.dir, 'note.txt'), name: 'note.txt', mediaType: 'text/plain' },
        { path: join(f.dir, 'annex.txt'), name: 'annex.txt', mediaType: 'text/plain' },
      ],
      join(f.dir, 'first.asice'),
      f.rsa,
    );
    const cosigned = await stationAsice(await withFileAdded(first, 'late.txt', texts['late.txt'], join(f.dir, 'late.asice')), join(f.dir, 'cosigned.asice'), f.ec);
    const container = await withFileAdded(cosigned, 'unsigned.txt', texts['unsigned.txt'], join(f.dir, 'final.asice'));

    const reportPath = join(f.dir, 'final-report.xml');
    const result = await runCli(['verify', container, '--json', '--report', reportPath, '--trust', f.rootPath, '--data-dir', join(f.dir, 'data')]);
    const report = documentVerificationSchema.parse(JSON.parse(result.stdout));
    expect(report.signatures.map((s) => [s.signer?.match(/CN=([^,]+)/)?.[1], s.verdict.indication])).toEqual([
      ['Mari Mägi', 'TOTAL-PASSED'],
      ['Jaan Tamm', 'TOTAL-PASSED'],
    ]);
    expect(report.files).toEqual([
      { name: 'note.txt', size: 15, sha256: sha256(texts['note.txt']), coveredBy: [0, 1] },
      { name: 'annex.txt', size: 9, sha256: sha256(texts['annex.txt']), coveredBy: [0, 1] },
      { name: 'late.txt', size: texts['late.txt'].length, sha256: sha256(texts['late.txt']), coveredBy: [1] },
      { name: 'unsigned.txt', size: texts['unsigned.txt'].length, sha256: sha256(texts['unsigned.txt']), coveredBy: [] },
    ]);

    const xml = new DOMParser().parseFromString(await readFile(reportPath, 'utf8'), 'application/xml');
    const covered = [...xml.getElementsByTagNameNS(VR, 'SignatureValidationReport')].map((signature) => signature.getElementsByTagNameNS(VR, 'SignersDocumentRepresentation')[0]?.getAttribute('VOReference'));
    expect(covered).toEqual(['D-1 D-2', 'D-1 D-2 D-3']);
    const objects = [...xml.getElementsByTagNameNS(VR, 'ValidationObject')].map((object) => [
      object.getAttribute('id'),
      object.getAttributeNS('urn:signing-station:validation-report', 'name'),
      object.getAttributeNS('urn:signing-station:validation-report', 'size'),
      object.getElementsByTagNameNS(VR, 'ObjectType')[0]?.textContent,
      object.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'DigestValue')[0]?.textContent,
    ]);
    expect(objects).toEqual(
      Object.entries(texts).map(([name, text], index) => [`D-${index + 1}`, name, String(text.length), 'urn:etsi:019102:validationObject:signedData', Buffer.from(sha256(text), 'hex').toString('base64')]),
    );
  });

});
