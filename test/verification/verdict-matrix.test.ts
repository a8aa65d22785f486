// Signatures made by other software (and the station's own ASiC-E), each format against an independent validator:
// for every case a maker can produce (intact / tampered / untrusted / revoked / expired without a proof of
// existence), the station's ETSI verdict and what the independent validator says. One table of formats, one runner.
import { execFile } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { mkdir, readFile, rm, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SignPdf } from '@signpdf/signpdf';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { P12Signer } from '@signpdf/signer-p12';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Indication, SubIndication } from '../../src/core/schemas/verification-report.js';
import type { TrustSource } from '../../src/station/ports/trust-source.js';
import { verifyDocument } from '../../src/station/verification/verify-document.js';
import { createTestCa, issueCertificate, keyParams, type IssuedCertificate, type IssueOptions, type TestCa } from '../support/pki/test-pki.js';
import { startRevocationServices, type RevocationServices } from '../support/signing/revocation-services.js';
import { createNssDb, pdfsig, run, xmlsecVerify } from '../support/signing/signing-validators.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';
import { extractZip } from '../support/signing/signing-zip-extract.js';
import { stationAsice } from '../support/verification/station-asice.js';
import { trustOf } from '../support/verification/trust-of.js';
import { writeAsicZip } from '../support/verification/write-asic-zip.js';
import { xmlsecAsice } from '../support/verification/xmlsec-asice.js';

const exec = promisify(execFile);
const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END ${label}-----\n`;
const DAY = 86_400_000;
const TEXT = 'Pay 100 EUR';
const CHANGED = 'Pay 900 EUR';

type Case = 'intact' | 'tampered' | 'untrusted' | 'revoked' | 'expired';
type Signer = IssuedCertificate & { name: string; pkcs8: Uint8Array };

/** What the station must say for each case, by ETSI EN 319 102-1. */
const EXPECTED: Record<Case, [Indication, SubIndication | null]> = {
  intact: ['TOTAL-PASSED', null],
  tampered: ['TOTAL-FAILED', 'HASH_FAILURE'],
  untrusted: ['INDETERMINATE', 'NO_CERTIFICATE_CHAIN_FOUND'],
  revoked: ['TOTAL-FAILED', 'REVOKED'],
  expired: ['INDETERMINATE', 'OUT_OF_BOUNDS_NO_POE'],
};

/** A signed object: the file to verify and, for a detached signature or a timestamp, its data file. */
interface Made {
  file: string;
  data?: string;
}

interface Format {
  name: string;
  /** The cases this software can be made to produce (one it cannot is left out, with the reason beside it). */
  cases: Case[];
  usage?: IssueOptions['usage'];
  /** Signed by `signer` over TEXT, in `dir`; `changed`: the signed content then altered (TEXT becomes CHANGED). */
  make(signer: Signer, dir: string, changed: boolean): Promise<Made>;
  /** The independent validator's words, trusting `caPem`'s root (or the unrelated one for `untrusted`). */
  independent(made: Made, caPath: string, dir: string): Promise<string>;
  /** What the independent validator must say per case (revocation is asked of the CA's OCSP responder for all). */
  says: Partial<Record<Case, RegExp>>;
}

let dir: string;
let ca: TestCa;
let services: RevocationServices;
const signers = new Map<string, Signer>();

async function issue(name: string, usage: IssueOptions['usage'], dates: { notBefore?: Date; notAfter?: Date } = {}): Promise<Signer> {
  const keys = (await webcrypto.subtle.generateKey(keyParams('RSA-2048'), true, ['sign', 'verify'])) as CryptoKeyPair;
  const issued = await issueCertificate(ca, { subject: `CN=${name},O=Signing Station Tests,C=EE`, publicKey: keys.publicKey, usage, crlUrl: services.crlUrl, ...dates });
  const signer = { ...issued, name, pkcs8: new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)) };
  await writeFile(join(dir, `${name}.pem`), signer.pem);
  await writeFile(join(dir, `${name}.key`), pem('PRIVATE KEY', signer.pkcs8));
  signers.set(name, signer);
  return signer;
}

const withText = (changed: boolean): string => (changed ? CHANGED : TEXT);

/** A PDF whose signed text is then changed in place (same length), as the tampered case needs. */
async function tamperPdf(file: string): Promise<void> {
  const bytes = await readFile(file);
  bytes.write(CHANGED, bytes.indexOf(TEXT), 'latin1');
  await writeFile(file, bytes);
}

/** The test PDF signed by `sign` (from its input path to its output path), its text then changed when `changed`. */
async function signedPdf(work: string, changed: boolean, sign: (input: string, output: string) => Promise<void>): Promise<Made> {
  const file = join(work, 'signed.pdf');
  await sign(await writeMinimalPdf(join(work, 'in.pdf'), TEXT), file);
  if (changed) await tamperPdf(file);
  return { file };
}

/** The signer's key and certificate as PKCS#12 (nickname "signer"), in the legacy encryption node-forge (@signpdf) reads. */
async function p12Of(signer: Signer, work: string): Promise<string> {
  const out = join(work, 'signer.p12');
  await exec('openssl', ['pkcs12', '-export', '-legacy', '-in', join(dir, `${signer.name}.pem`), '-inkey', join(dir, `${signer.name}.key`), '-name', 'signer', '-out', out, '-passout', 'pass:x']);
  return out;
}

/** pdfsig's words on a PDF's one signature, against an NSS database trusting `caPath`. */
async function pdfsigSays(made: Made, caPath: string, work: string): Promise<string> {
  const nss = await createNssDb(await mkdtemp(join(work, 'nss-')), await readFile(caPath, 'utf8'));
  const { signatures, output } = await pdfsig(nss, made.file);
  return signatures[0]?.text ?? output;
}

const PDF_SAYS = {
  intact: /Signature is Valid\.[\s\S]*Certificate is Trusted\./,
  tampered: /Digest Mismatch/,
  untrusted: /Signature is Valid\.[\s\S]*Certificate issuer is unknown\./,
  expired: /Certificate has Expired/,
};

const FORMATS: Format[] = [
  {
    name: 'PAdES by @signpdf',
    cases: ['intact', 'tampered', 'untrusted', 'revoked', 'expired'],
    make: (signer, work, changed) =>
      signedPdf(work, changed, async (input, output) => {
        // placeholder-plain's startxref points at the newline before its `xref`, which a reader must allow.
        const pdfBuffer = plainAddPlaceholder({ pdfBuffer: await readFile(input), reason: 'Agreed', contactInfo: '', name: signer.name, location: 'Tallinn' });
        await writeFile(output, await new SignPdf().sign(pdfBuffer, new P12Signer(await readFile(await p12Of(signer, work)), { passphrase: 'x' })));
      }),
    independent: pdfsigSays,
    says: PDF_SAYS,
  },
  {
    name: 'PAdES by pdfsig -add-signature',
    cases: ['intact', 'tampered', 'untrusted', 'revoked', 'expired'],
    make: (signer, work, changed) =>
      signedPdf(work, changed, async (input, output) => {
        const nss = await createNssDb(join(work, 'signing-nss'), ca.pem);
        await exec('pk12util', ['-i', await p12Of(signer, work), '-d', `sql:${nss}`, '-W', 'x', '-K', '']);
        await exec('pdfsig', ['-nssdir', `sql:${nss}`, '-add-signature', '-nick', 'signer', '-reason', 'Agreed', input, output]);
      }),
    independent: pdfsigSays,
    says: PDF_SAYS,
  },
  {
    name: 'CAdES detached by openssl cms -sign',
    cases: ['intact', 'tampered', 'untrusted', 'revoked', 'expired'],
    async make(signer, work, changed) {
      await writeFile(join(work, 'data.txt'), TEXT);
      const file = join(work, 'data.txt.p7s');
      await exec('openssl', ['cms', '-sign', '-binary', '-in', 'data.txt', '-signer', join(dir, `${signer.name}.pem`), '-inkey', join(dir, `${signer.name}.key`), '-outform', 'DER', '-out', file], { cwd: work });
      await writeFile(join(work, 'data.txt'), withText(changed));
      return { file, data: join(work, 'data.txt') };
    },
    async independent(made, caPath) {
      const result = await run('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', made.file, '-content', made.data!, '-out', '/dev/null', '-purpose', 'any', '-CAfile', caPath]);
      return result.code === 0 ? 'verified' : result.stderr;
    },
    says: { intact: /^verified$/, tampered: /digest failure|content verify error/, untrusted: /unable to get local issuer certificate/, expired: /certificate has expired/ },
  },
  {
    name: 'XAdES in ASiC-E by xmlsec1 --sign',
    cases: ['intact', 'tampered', 'untrusted', 'revoked', 'expired'],
    async make(signer, work, changed) {
      return { file: await xmlsecAsice({ dir: work, signer, name: 'xmlsec', signedNote: TEXT, note: withText(changed) }) };
    },
    independent: xmlsecSays,
    says: { intact: /^OK/m, tampered: /^FAIL/m, untrusted: /unable to get local issuer certificate/, expired: /certificate has expired/ },
  },
  {
    name: 'XAdES in ASiC-E by the station',
    // No expired cell: the station refuses to sign with an expired certificate (softhsm-token.test.ts holds that).
    cases: ['intact', 'tampered', 'untrusted', 'revoked'],
    async make(signer, work, changed) {
      await writeFile(join(work, 'note.txt'), TEXT);
      const signed = await stationAsice([{ path: join(work, 'note.txt'), name: 'note.txt', mediaType: 'text/plain' }], join(work, 'station.asice'), signer);
      if (!changed) return { file: signed };
      // The data file's text changed, repacked with everything else as it was.
      const names = await extractZip(signed, join(work, 'repack'));
      await writeFile(join(work, 'repack', 'note.txt'), CHANGED);
      return { file: await writeAsicZip(join(work, 'changed.asice'), await Promise.all(names.map(async (name) => [name, await readFile(join(work, 'repack', name))] as const))) };
    },
    independent: xmlsecSays,
    says: { intact: /^OK/m, tampered: /^FAIL/m, untrusted: /unable to get local issuer certificate/ },
  },
  {
    name: 'RFC 3161 timestamp (.tsr) by openssl ts -reply',
    usage: 'tsa',
    cases: ['intact', 'tampered', 'untrusted', 'revoked', 'expired'],
    async make(tsa, work, changed) {
      await writeFile(join(work, 'data.txt'), TEXT);
      await opensslTimestamp(tsa, work, join(work, 'data.txt'), join(work, 'data.txt.tsr'));
      await writeFile(join(work, 'data.txt'), withText(changed));
      return { file: join(work, 'data.txt.tsr'), data: join(work, 'data.txt') };
    },
    async independent(made, caPath) {
      const result = await run('openssl', ['ts', '-verify', '-data', made.data!, '-in', made.file, '-CAfile', caPath]);
      return result.stdout + result.stderr;
    },
    says: { intact: /Verification: OK/, tampered: /message imprint mismatch/, untrusted: /unable to get local issuer certificate/, expired: /certificate has expired/ },
  },
];

/** xmlsec1 on the container's one signature, unzipped, trusting `caPath`. */
async function xmlsecSays(made: Made, caPath: string, work: string): Promise<string> {
  const root = await mkdtemp(join(work, 'unzipped-'));
  await extractZip(made.file, root);
  const result = await xmlsecVerify(root, 'META-INF/signatures0.xml', caPath);
  return result.stdout + result.stderr;
}

/** A TimeStampResp over `data` from `openssl ts -reply`, signed by `tsa` (a TSA certificate of the test CA). */
async function opensslTimestamp(tsa: Signer, work: string, data: string, out: string): Promise<void> {
  const config = join(work, 'tsa.cnf');
  await writeFile(join(work, 'serial'), '01\n');
  await writeFile(
    config,
    ['[ tsa ]', 'default_tsa = t', '[ t ]', `serial = ${join(work, 'serial')}`, `signer_cert = ${join(dir, `${tsa.name}.pem`)}`, `signer_key = ${join(dir, `${tsa.name}.key`)}`, `certs = ${join(dir, `${tsa.name}.pem`)}`, 'signer_digest = sha256', 'default_policy = 1.2.3.4.1', 'digests = sha256', 'ess_cert_id_alg = sha256', ''].join('\n'),
  );
  await exec('openssl', ['ts', '-query', '-data', data, '-sha256', '-cert', '-out', join(work, 'query.tsq')]);
  await exec('openssl', ['ts', '-reply', '-config', config, '-queryfile', join(work, 'query.tsq'), '-out', out]);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verdict-matrix-'));
  // RSA: node-forge (in @signpdf) cannot read a certificate an EC key signed.
  ca = await createTestCa('CN=Other Software Root,O=Signing Station Tests,C=EE', 'RSA-2048');
  await writeFile(join(dir, 'ca.pem'), ca.pem);
  await writeFile(join(dir, 'stranger.pem'), (await createTestCa('CN=Unrelated Root,C=EE')).pem);
  services = await startRevocationServices(dir, ca);
  const expired = { notBefore: new Date(Date.now() - 400 * DAY), notAfter: new Date(Date.now() - DAY) };
  const good: Signer[] = [];
  const revoked: Signer[] = [];
  for (const usage of ['signing', 'tsa'] as const) {
    good.push(await issue(`Good ${usage}`, usage), await issue(`Expired ${usage}`, usage, expired));
    revoked.push(await issue(`Revoked ${usage}`, usage));
  }
  await services.publish(good, revoked);
}, 60_000);

afterAll(async () => {
  await services?.close();
  await rm(dir, { recursive: true, force: true });
});

const SIGNER_OF: Record<Case, string> = { intact: 'Good', tampered: 'Good', untrusted: 'Good', revoked: 'Revoked', expired: 'Expired' };

describe('the verdict matrix: each format made by other software, the station’s verdict against an independent validator’s', () => {
  const rows = FORMATS.flatMap((format) => format.cases.map((name) => ({ format, name })));
  it.each(rows.map((row) => [`${row.format.name}: ${row.name}`, row] as const))('%s', async (_, { format, name }) => {
    const work = join(dir, `${format.name}-${name}`.replace(/[^\w-]+/g, '_'));
    await mkdir(work);
    const signer = signers.get(`${SIGNER_OF[name]} ${format.usage ?? 'signing'}`)!;
    const made = await format.make(signer, work, name === 'tampered');
    const trust: TrustSource = trustOf(name === 'untrusted' ? (await createTestCa('CN=Unrelated Root,C=EE')).certificate : ca.certificate);
    const report = await verifyDocument(made.file, { trust, ...(made.data ? { data: made.data } : {}) });
    const { indication, subIndication, reason } = report.signatures[0]!.verdict;
    expect([indication, subIndication], reason).toEqual(EXPECTED[name]);

    const said =
      name === 'revoked'
        ? (await exec('openssl', ['ocsp', '-issuer', join(dir, 'ca.pem'), '-cert', join(dir, `${signer.name}.pem`), '-url', services.ocspUrl, '-noverify'])).stdout
        : await format.independent(made, join(dir, name === 'untrusted' ? 'stranger.pem' : 'ca.pem'), work);
    expect(said, `the independent validator on ${format.name}, ${name}`).toMatch(name === 'revoked' ? new RegExp(`${signer.name}.pem: revoked`) : format.says[name]!);
  });
});
