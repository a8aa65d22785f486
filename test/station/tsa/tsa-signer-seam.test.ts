import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, createPrivateKey, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SoftTsaSigner } from '../../../src/station/tsa/soft-tsa-signer.js';
import { TokenTsaSigner } from '../../../src/station/tsa/token-tsa-signer.js';
import { TimestampAuthority } from '../../../src/station/tsa/timestamp-authority.js';
import { readTimestampReply } from '../../../src/station/tsa/timestamp-reply-reader.js';
import { x509 } from '../../../src/station/pki/x509.js';
import { createTestCa, createTestSigner, type KeyAlgorithm, type TestCa } from '../../support/pki/test-pki.js';
import { openTsaFixture, type TsaFixture } from '../../support/tsa/tsa-fixture.js';
import { openssl } from '../../support/tsa/tsa-openssl.js';
import { startTestStation } from '../../support/station/test-station.js';
import { HttpTimestampClient } from '../../../src/station/tsa/http-timestamp-client.js';
import { createSoftHsmTsaToken } from '../../support/tsa/tsa-softhsm-token.js';

const keyOf = (pkcs8: Uint8Array) => createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' });

describe('TSA signer seam', () => {
  let fixture: TsaFixture;
  let ca: TestCa;
  let caPem: string;
  let data: string;
  beforeAll(async () => {
    fixture = await openTsaFixture();
    ca = await createTestCa('CN=External TSA Root,O=Signing Station Tests', 'P-384');
    caPem = join(fixture.dir, 'external-ca.pem');
    await writeFile(caPem, ca.pem);
    data = join(fixture.dir, 'data.bin');
    await writeFile(data, randomBytes(2000));
  });
  afterAll(() => fixture.dispose());

  async function issueAndVerify(tsa: TimestampAuthority, trustPem: string, digest: string): Promise<void> {
    const query = join(fixture.dir, `q-${randomBytes(4).toString('hex')}.tsq`);
    const reply = `${query}.tsr`;
    expect((await openssl(['ts', '-query', '-data', data, digest, '-cert', '-out', query])).code).toBe(0);
    await writeFile(reply, await tsa.respond(await readFile(query)));
    const verified = await openssl(['ts', '-verify', '-queryfile', query, '-in', reply, '-CAfile', trustPem]);
    expect(verified.code, verified.stderr + verified.stdout).toBe(0);
  }

  for (const [algorithm, digestAlgorithm] of [
    ['RSA-2048', 'SHA-384'],
    ['P-256', 'SHA-256'],
    ['P-384', 'SHA-512'],
  ] as Array<[KeyAlgorithm, 'SHA-256' | 'SHA-384' | 'SHA-512']>) {
    it(`signs with a key and chain from elsewhere: ${algorithm} with ${digestAlgorithm}, verified by openssl`, async () => {
      const external = await createTestSigner(ca, `CN=External TSA ${algorithm},O=Signing Station Tests`, algorithm, 'tsa');
      const signer = new SoftTsaSigner(keyOf(external.pkcs8), [external.der, ca.der], digestAlgorithm);
      const tsa = await TimestampAuthority.open({ database: fixture.database, vault: fixture.vault, clock: { now: () => new Date() }, signer });
      expect(tsa.certificates[0]).toEqual(external.der);
      await issueAndVerify(tsa, caPem, '-sha256');
      await issueAndVerify(tsa, caPem, '-sha512');
      await tsa.close();
    });
  }

  it('signs with a key on a PKCS#11 token (SoftHSM2) through TokenTsaSigner, verified by openssl', async () => {
    const hsm = await createSoftHsmTsaToken(fixture.dir, ca);
    try {
      const signer = new TokenTsaSigner({
        token: hsm.token,
        certificateId: '01',
        certificates: [hsm.certificate.der, ca.der],
        signatureScheme: 'RSASSA-PKCS1-v1_5',
        pin: async () => new Uint8Array(Buffer.from(hsm.pin)),
      });
      const tsa = await TimestampAuthority.open({ database: fixture.database, vault: fixture.vault, clock: { now: () => new Date() }, signer });
      await issueAndVerify(tsa, caPem, '-sha256');
      await issueAndVerify(tsa, caPem, '-sha384');
      await tsa.close();
    } finally {
      hsm.dispose();
    }
  });

  it('is reachable from the composition root: createStation({ ... }, { tsaSigner }) serves tokens from that key over HTTP', async () => {
    const external = await createTestSigner(ca, 'CN=Configured TSA,O=Signing Station Tests', 'P-256', 'tsa');
    const station = await startTestStation({}, { tsaSigner: new SoftTsaSigner(keyOf(external.pkcs8), [external.der, ca.der]) });
    try {
      await station.data.clients.upsert({ clientId: 'seam', allowedIps: ['127.0.0.1'] });
      expect(station.tsa.certificates[0]).toEqual(external.der);
      const hash = createHash('sha256').update('configured signer').digest();
      const token = await new HttpTimestampClient({ url: `${station.baseUrl}/api/timestamp/seam` }).timestamp(hash, 'SHA-256');
      const tokenPath = join(fixture.dir, 'seam-token.der');
      await writeFile(tokenPath, token);
      const verified = await openssl(['ts', '-verify', '-digest', hash.toString('hex'), '-token_in', '-in', tokenPath, '-CAfile', caPem]);
      expect(verified.code, verified.stderr).toBe(0);
    } finally {
      await station.dispose();
    }
  });

  it('refuses to start with a certificate that is not a TSA certificate (no critical timeStamping EKU)', async () => {
    const notTsa = await createTestSigner(ca, 'CN=Document Signer,O=Signing Station Tests', 'RSA-2048', 'signing');
    await expect(
      TimestampAuthority.open({ database: fixture.database, vault: fixture.vault, clock: { now: () => new Date() }, signer: new SoftTsaSigner(keyOf(notTsa.pkcs8), [notTsa.der, ca.der]) }),
    ).rejects.toMatchObject({ code: 'ERR_TSA_CERTIFICATE_INVALID' });
  });

  it('refuses to start when the key does not belong to the certificate', async () => {
    const one = await createTestSigner(ca, 'CN=TSA One,O=Signing Station Tests', 'RSA-2048', 'tsa');
    const other = await createTestSigner(ca, 'CN=TSA Two,O=Signing Station Tests', 'RSA-2048', 'tsa');
    await expect(
      TimestampAuthority.open({ database: fixture.database, vault: fixture.vault, clock: { now: () => new Date() }, signer: new SoftTsaSigner(keyOf(other.pkcs8), [one.der, ca.der]) }),
    ).rejects.toMatchObject({ code: 'ERR_TSA_KEY_MISMATCH' });
  });

  it('renews the station’s TSA certificate under the same root when it nears its end, serials continuing', async () => {
    const before = fixture.tsa.certificates;
    const lastSerial = readTimestampReply(await fixture.tsa.respond(await queryDer())).tstInfo!.serialNumber;
    const nearEnd = new x509.X509Certificate(Uint8Array.from(before[0]!)).notAfter.getTime() - 30 * 86_400_000;
    await fixture.restart({ clock: { now: () => new Date(nearEnd) } });
    const after = fixture.tsa.certificates;
    expect(after[1]).toEqual(before[1]);
    expect(after[0]).not.toEqual(before[0]);
    const renewed = new x509.X509Certificate(Uint8Array.from(after[0]!));
    expect(renewed.notAfter.getTime()).toBeGreaterThan(nearEnd + 365 * 86_400_000);
    expect(await renewed.verify({ publicKey: new x509.X509Certificate(Uint8Array.from(after[1]!)).publicKey, signatureOnly: true })).toBe(true);
    const reply = readTimestampReply(await fixture.tsa.respond(await queryDer()));
    expect(BigInt(`0x${Buffer.from(reply.tstInfo!.serialNumber).toString('hex')}`)).toBeGreaterThan(BigInt(`0x${Buffer.from(lastSerial).toString('hex')}`));
    await fixture.restart();
    expect(fixture.tsa.certificates[0]).toEqual(after[0]);
  });

  async function queryDer(): Promise<Buffer> {
    const query = join(fixture.dir, `q-${randomBytes(4).toString('hex')}.tsq`);
    expect((await openssl(['ts', '-query', '-data', data, '-sha256', '-out', query])).code).toBe(0);
    return readFile(query);
  }
});
