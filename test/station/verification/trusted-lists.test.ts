import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x509 } from '../../../src/station/pki/x509.js';
import { loadTrustSource } from '../../../src/station/verification/load-trust-source.js';
import { verifyDocument } from '../../../src/station/verification/verify-document.js';
import { validationReportXml } from '../../../src/station/verification/validation-report-xml.js';
import { ManagedTrust } from '../../../src/station/verification/trusted-lists/managed-trust.js';
import { createTestCa, type TestCa } from '../../support/pki/test-pki.js';
import { qcSigner } from '../../support/verification/qc-signer.js';
import { buildCmsSignature } from '../../support/verification/build-cms-signature.js';
import { createListSigner, lotlXml, nationalListXml, QUALIFIER, SERVICE_TYPE, signWithXmlsec, STATUS, xmlsecVerifies, type ListSigner, type ServiceSpec } from '../../support/verification/trusted-list-xml.js';

const SHA256 = { nodeName: 'sha256', oid: '2.16.840.1.101.3.4.2.1' };
const ECDSA_SHA256 = '1.2.840.10045.4.3.2';
const withdrawnAt = new Date(Date.now() - 2 * 3_600_000);

/** Our own HTTP server for the lists, answering If-None-Match with 304 and counting requests. */
const served = new Map<string, { body: string; etag: string }>();
const requests: Array<{ path: string; ifNoneMatch: string | undefined }> = [];
let server: Server;
let base: string;
let dir: string;
let lotlSigner: ListSigner;
let eeSigner: ListSigner;
let lvSigner: ListSigner;
let qcCa: TestCa;
let withdrawnCa: TestCa;
let tsaCa: TestCa;
let eeServices: ServiceSpec[];

function serve(path: string, body: string): void {
  served.set(path, { body, etag: `"${path}-${body.length}-${served.size}-${Date.now()}"` });
}

async function signFile(name: string, signer: { der: Uint8Array; pkcs8: Uint8Array }): Promise<string> {
  const content = Buffer.from(`the ${name} document`);
  await writeFile(join(dir, name), content);
  await writeFile(join(dir, `${name}.p7s`), buildCmsSignature({ certificate: signer.der, pkcs8: signer.pkcs8, content, digest: SHA256, signatureOid: ECDSA_SHA256, dsaEncoding: 'der' }));
  return join(dir, `${name}.p7s`);
}

const nationalEe = (sequence: number): string => nationalListXml({ territory: 'EE', sequence }, eeServices);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trusted-lists-'));
  [lotlSigner, eeSigner, lvSigner] = await Promise.all([createListSigner('Test LOTL signer'), createListSigner('Test EE list signer'), createListSigner('Test LV list signer')]);
  qcCa = await createTestCa('CN=Test Qualified CA,O=Signing Station Tests,C=EE');
  withdrawnCa = await createTestCa('CN=Test Withdrawn CA,O=Signing Station Tests,C=LV');
  tsaCa = await createTestCa('CN=Test Qualified TSA,O=Signing Station Tests,C=EE');
  eeServices = [
    { provider: 'Test EE provider', name: 'Test Qualified CA', certificates: [qcCa.der], periods: [{ type: SERVICE_TYPE.caQc, status: STATUS.granted, since: new Date('2020-01-01'), qualifiers: [QUALIFIER.withSscd] }] },
    { provider: 'Test EE provider', name: 'Test Qualified TSA', certificates: [tsaCa.der], periods: [{ type: SERVICE_TYPE.tsaQtst, status: STATUS.granted, since: new Date('2020-01-01') }] },
  ];
  const lvServices: ServiceSpec[] = [
    {
      provider: 'Test LV provider',
      name: 'Test Withdrawn CA',
      certificates: [withdrawnCa.der],
      periods: [
        { type: SERVICE_TYPE.caQc, status: STATUS.withdrawn, since: withdrawnAt },
        { type: SERVICE_TYPE.caQc, status: STATUS.granted, since: new Date('2020-01-01') },
      ],
    },
  ];
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({ path, ifNoneMatch: request.headers['if-none-match'] });
    const entry = served.get(path);
    if (!entry) return void response.writeHead(404).end();
    if (request.headers['if-none-match'] === entry.etag) return void response.writeHead(304).end();
    response.writeHead(200, { 'content-type': 'application/vnd.etsi.tsl+xml', etag: entry.etag }).end(entry.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const lotl = lotlXml({ territory: 'ZZ', sequence: 7 }, [
    { territory: 'EE', location: `${base}/ee.xml`, certificates: [eeSigner.der] },
    { territory: 'LV', location: `${base}/lv.xml`, certificates: [lvSigner.der] },
  ]);
  serve('/lotl.xml', await signWithXmlsec(lotl, lotlSigner));
  serve('/ee.xml', await signWithXmlsec(nationalEe(3), eeSigner));
  serve('/lv.xml', await signWithXmlsec(nationalListXml({ territory: 'LV', sequence: 12 }, lvServices), lvSigner));
  const trust = await ManagedTrust.open(dir);
  // The test's network has no route to the EU's list of lists: refresh only ours.
  await trust.setEuLists(false);
  const imported = await trust.updater.importUrl(`${base}/lotl.xml`, [lotlSigner.certPem]);
  expect(imported.lists.map((l) => [l.territory, l.outcome])).toEqual([
    ['ZZ', 'updated'],
    ['EE', 'updated'],
    ['LV', 'updated'],
  ]);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const trustHere = () => loadTrustSource({ identity: { trustedIssuers: [] }, dataDir: dir }, []);

describe.sequential('EU-style trusted lists: our own list of lists and two national lists, signed by xmlsec1, served over HTTP', () => {
  it('the lists we serve verify with xmlsec1 too (the independent check that signing and verification agree)', async () => {
    expect(await xmlsecVerifies(served.get('/ee.xml')!.body, eeSigner.certPem)).toBe(true);
    expect(await xmlsecVerifies(served.get('/lotl.xml')!.body, lotlSigner.certPem)).toBe(true);
  });

  it('shows QES for a signature by a certificate (QcCompliance, QcSSCD) from a CA the list grants as CA/QC with QCWithSSCD, when issued and at the signing time', async () => {
    const signer = await qcSigner(qcCa, 'CN=Mari Maasikas,C=EE');
    const report = await verifyDocument(await signFile('qes.txt', signer), { trust: await trustHere() });
    const issuedAt = new x509.X509Certificate(Uint8Array.from(signer.der)).notBefore.toISOString();
    expect(report.signatures[0]).toMatchObject({
      verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }),
      chain: expect.objectContaining({ anchorSource: 'trusted list EE (sequence 3): Test Qualified CA' }),
      qualification: expect.objectContaining({
        level: 'QES',
        qualifiedCertificate: true,
        qscd: true,
        type: 'esig',
        qualifiers: ['QCWithSSCD'],
        atIssuance: expect.objectContaining({ time: issuedAt, level: 'QES', qualifiedCertificate: true }),
        atSigning: expect.objectContaining({ time: report.signatures[0]!.verdict.judgedAt, level: 'QES' }),
      }),
    });
    const xml = validationReportXml(report);
    expect(xml).toContain('<vr:SignatureQuality><vr:SignatureQualityInformation>urn:cef:dss:signatureQualification:QESig</vr:SignatureQualityInformation>');
    expect(xml).toContain(`<vr:CertificateQualification ValidationTime="CERTIFICATE_ISSUANCE_TIME" Time="${issuedAt}">urn:cef:dss:signatureQualification:QESig</vr:CertificateQualification>`);
    expect(xml).toContain('<vr:CertificateQualification ValidationTime="BEST_SIGNATURE_TIME"');
  });

  it('is not qualified when the CA was withdrawn between the certificate\'s issuance and the signing time, and QES when signed before', async () => {
    const file = await signFile('withdrawn-qes.txt', await qcSigner(withdrawnCa, 'CN=Anna Liepa,C=LV'));
    const after = (await verifyDocument(file, { trust: await trustHere() })).signatures[0]!;
    expect(after.qualification).toMatchObject({
      level: 'AdES',
      qualifiedCertificate: false,
      reason: expect.stringMatching(/^qualified when issued .*, but not at the signing time .*no longer granted/),
      atIssuance: { level: 'QES', qualifiedCertificate: true, trustedList: expect.stringContaining('Test Withdrawn CA') },
      atSigning: { level: 'AdES', qualifiedCertificate: false, trustedList: null },
    });
    expect(validationReportXml({ file, format: 'cms', signatures: [after], validatedAt: new Date().toISOString(), indication: after.verdict.indication })).toContain('ValidationTime="BEST_SIGNATURE_TIME"');
    const before = new Date(withdrawnAt.getTime() - 3_600_000);
    const earlier = (await verifyDocument(file, { trust: await trustHere(), clock: { now: () => before } })).signatures[0]!;
    expect(earlier.qualification).toMatchObject({ level: 'QES', atIssuance: { level: 'QES' }, atSigning: { level: 'QES', time: before.toISOString() } });
  });

  it('is INDETERMINATE/NO_CERTIFICATE_CHAIN_FOUND for a signature judged after its CA was withdrawn, and passes judged before', async () => {
    const file = await signFile('withdrawn.txt', await qcSigner(withdrawnCa, 'CN=Janis Berzins,C=LV'));
    const after = await verifyDocument(file, { trust: await trustHere() });
    expect(after.signatures[0]!.verdict).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'NO_CERTIFICATE_CHAIN_FOUND' });
    expect(after.signatures[0]!.qualification).toMatchObject({ level: 'AdES' });
    const before = new Date(withdrawnAt.getTime() - 3_600_000);
    const earlier = await verifyDocument(file, { trust: await trustHere(), clock: { now: () => before } });
    expect(earlier.signatures[0]!.verdict).toMatchObject({ indication: 'TOTAL-PASSED' });
  });

  it('trusts the listed QTST service for timestamps only, and the withdrawn CA only before its withdrawal', async () => {
    const trust = await trustHere();
    const subjects = async (type: 'CA' | 'TSA', at: Date) => (await trust.anchorsAt(type, at)).map((a) => a.certificate.subject).sort();
    expect(await subjects('TSA', new Date())).toEqual([tsaCa.certificate.subject]);
    expect(await subjects('CA', new Date())).toEqual([qcCa.certificate.subject]);
    expect(await subjects('CA', new Date(withdrawnAt.getTime() - 3_600_000))).toEqual([qcCa.certificate.subject, withdrawnCa.certificate.subject].sort());
  });

  it('asks again conditionally: an unchanged list (304) is kept as it is', async () => {
    requests.length = 0;
    const result = await (await ManagedTrust.open(dir)).refresh();
    expect(result.lists.map((l) => l.outcome)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(requests.find((r) => r.path === '/ee.xml')?.ifNoneMatch).toBe(served.get('/ee.xml')!.etag);
  });

  it('refuses a newer list whose signature is broken, says so, and keeps the last good one', async () => {
    const good = served.get('/ee.xml')!.body;
    const tampered = good.replace('<tsl:TSLSequenceNumber>3<', '<tsl:TSLSequenceNumber>4<');
    expect(await xmlsecVerifies(tampered, eeSigner.certPem)).toBe(false);
    serve('/ee.xml', tampered);
    const result = await (await ManagedTrust.open(dir)).refresh();
    const ee = result.lists.find((l) => l.territory === 'EE')!;
    expect(ee).toMatchObject({ outcome: 'refused', message: expect.stringContaining('signature does not verify') });
    const trust = await ManagedTrust.open(dir);
    expect(trust.sources([]).lists.find((l) => l.territory === 'EE')).toMatchObject({ sequenceNumber: 3, refused: expect.objectContaining({ reason: expect.stringContaining('signature') }) });
    serve('/ee.xml', good);
  });

  it('refuses a list whose sequence number goes backwards, even correctly signed', async () => {
    serve('/ee.xml', await signWithXmlsec(nationalEe(2), eeSigner));
    const result = await (await ManagedTrust.open(dir)).refresh();
    expect(result.lists.find((l) => l.territory === 'EE')).toMatchObject({ outcome: 'refused', message: expect.stringContaining('sequence number 2 goes back from 3') });
  });

  it('refuses a national list signed by a key its list of lists does not announce for it', async () => {
    serve('/ee.xml', await signWithXmlsec(nationalEe(5), lvSigner));
    const result = await (await ManagedTrust.open(dir)).refresh();
    expect(result.lists.find((l) => l.territory === 'EE')).toMatchObject({ outcome: 'refused' });
  });

  it('refuses a list for another territory than its pointer names, though signed by the key announced there', async () => {
    serve('/ee.xml', await signWithXmlsec(nationalListXml({ territory: 'LV', sequence: 99 }, eeServices), eeSigner));
    const result = await (await ManagedTrust.open(dir)).refresh();
    expect(result.lists.find((l) => l.territory === 'EE')).toMatchObject({ outcome: 'refused', message: expect.stringContaining('points to it for EE') });
    expect((await ManagedTrust.open(dir)).sources([]).lists.find((l) => l.territory === 'LV')).toMatchObject({ sequenceNumber: 12 });
  });

  it('refuses an unsigned list, and a list of lists signed by a key not configured for it', async () => {
    const offline = await mkdtemp(join(tmpdir(), 'offline-lists-'));
    try {
      await writeFile(join(offline, 'ee.xml'), nationalEe(9).replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, ''));
      const unsigned = await (await ManagedTrust.open(dir)).updater.importPath(offline);
      expect(unsigned.lists).toMatchObject([{ outcome: 'refused', message: expect.stringContaining('it is not signed') }]);
      const foreign = await createListSigner('Not the LOTL signer');
      await rm(join(offline, 'ee.xml'));
      await writeFile(join(offline, 'lotl.xml'), await signWithXmlsec(lotlXml({ territory: 'ZZ', sequence: 8 }, [{ territory: 'EE', location: `${base}/ee.xml`, certificates: [foreign.der] }]), foreign));
      const result = await (await ManagedTrust.open(dir)).updater.importPath(offline);
      expect(result.lists).toMatchObject([{ outcome: 'refused', message: expect.stringContaining('does not verify') }]);
    } finally {
      await rm(offline, { recursive: true, force: true });
    }
  });

  it('refuses a list whose signature covers only a part of it (the rest could be anything)', async () => {
    const partial = nationalEe(10).replace('<tsl:SchemeInformation>', '<tsl:SchemeInformation Id="scheme">').replace('<ds:Reference URI="">', '<ds:Reference URI="#scheme">');
    const signed = await signWithXmlsec(partial, eeSigner, ['--id-attr:Id', 'http://uri.etsi.org/02231/v2#:SchemeInformation']);
    const offline = await mkdtemp(join(tmpdir(), 'offline-lists-'));
    try {
      await writeFile(join(offline, 'ee.xml'), signed);
      const result = await (await ManagedTrust.open(dir)).updater.importPath(offline);
      expect(result.lists).toMatchObject([{ outcome: 'refused', message: expect.stringContaining('does not cover the whole list') }]);
    } finally {
      await rm(offline, { recursive: true, force: true });
    }
  });

  it('uses lists under the EU list of lists only while the EU lists are on', async () => {
    const euDir = await mkdtemp(join(tmpdir(), 'eu-lists-'));
    try {
      const lists = join(euDir, 'lists');
      await mkdir(lists);
      // Our own signer given as an extra signing certificate of the EU's list of lists, as for a newly announced one.
      await writeFile(join(lists, 'lotl.xml'), await signWithXmlsec(lotlXml({ territory: 'EU', sequence: 1 }, [{ territory: 'EE', location: `${base}/ee.xml`, certificates: [eeSigner.der] }]), lotlSigner));
      await writeFile(join(lists, 'ee.xml'), await signWithXmlsec(nationalEe(1), eeSigner));
      const trust = await ManagedTrust.open(join(euDir, 'data'));
      expect((await trust.updater.importPath(lists, [lotlSigner.certPem])).lists.map((l) => l.outcome)).toEqual(['updated', 'updated']);
      const anchors = async () => (await loadTrustSource({ identity: { trustedIssuers: [] }, dataDir: join(euDir, 'data') }, [])).anchorsAt('CA', new Date());
      expect((await anchors()).map((a) => a.certificate.subject)).toEqual([qcCa.certificate.subject]);
      await trust.setEuLists(false);
      expect(await anchors()).toEqual([]);
    } finally {
      await rm(euDir, { recursive: true, force: true });
    }
  });

  it('imports lists offline from a folder, checked against the list of lists known here', async () => {
    const offline = await mkdtemp(join(tmpdir(), 'offline-lists-'));
    try {
      await writeFile(join(offline, 'ee.xml'), await signWithXmlsec(nationalEe(6), eeSigner));
      const result = await (await ManagedTrust.open(dir)).updater.importPath(offline);
      expect(result.lists).toMatchObject([{ outcome: 'updated' }]);
      expect((await ManagedTrust.open(dir)).sources([]).lists.find((l) => l.territory === 'EE')).toMatchObject({ sequenceNumber: 6, refused: null });
      expect(await readFile(join(dir, 'trust', 'state.json'), 'utf8')).toContain('"sequenceNumber": 6');
    } finally {
      await rm(offline, { recursive: true, force: true });
    }
  });
});
