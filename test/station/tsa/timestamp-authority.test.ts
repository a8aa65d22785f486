import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, createPrivateKey, randomBytes } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AsnConvert } from '@peculiar/asn1-schema';
import { SignedData, ContentInfo } from '@peculiar/asn1-cms';
import { TimeStampReq, MessageImprint } from '@peculiar/asn1-tsp';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { OctetString } from '@peculiar/asn1-schema';
import { x509 } from '../../../src/station/pki/x509.js';
import { readTimestampReply } from '../../../src/station/tsa/timestamp-reply-reader.js';
import { DEFAULT_TSA_POLICY_OID } from '../../../src/station/tsa/timestamp-authority.js';
import { openTsaFixture, type TsaFixture } from '../../support/tsa/tsa-fixture.js';
import { describeReply, openssl } from '../../support/tsa/tsa-openssl.js';
import { bouncyCastleCheck } from '../../support/tsa/tsa-bouncycastle.js';

const SHA256 = '2.16.840.1.101.3.4.2.1';

function request(fields: { algorithm?: string; hash?: Uint8Array; nonce?: Uint8Array; certReq?: boolean; reqPolicy?: string; version?: number }): Buffer {
  return Buffer.from(
    AsnConvert.serialize(
      new TimeStampReq({
        version: fields.version ?? 1,
        messageImprint: new MessageImprint({
          hashAlgorithm: new AlgorithmIdentifier({ algorithm: fields.algorithm ?? SHA256 }),
          hashedMessage: new OctetString(fields.hash ?? randomBytes(32)),
        }),
        certReq: fields.certReq ?? true,
        ...(fields.nonce ? { nonce: Uint8Array.from(fields.nonce).buffer } : {}),
        ...(fields.reqPolicy ? { reqPolicy: fields.reqPolicy } : {}),
      }),
    ),
  );
}

describe('TimestampAuthority', () => {
  let fixture: TsaFixture;
  let dir: string;
  let data: string;
  let step = 0;
  beforeAll(async () => {
    fixture = await openTsaFixture();
    dir = fixture.dir;
    data = join(dir, 'document.bin');
    await writeFile(data, randomBytes(4096));
  });
  afterAll(() => fixture.dispose());

  /** openssl ts -query → station → files for openssl ts -verify. */
  async function stamp(queryArgs: string[]): Promise<{ query: string; reply: string; response: Buffer }> {
    step++;
    const query = join(dir, `q${step}.tsq`);
    const reply = join(dir, `r${step}.tsr`);
    const made = await openssl(['ts', '-query', '-data', data, ...queryArgs, '-out', query]);
    expect(made.code, made.stderr).toBe(0);
    const response = await fixture.tsa.respond(await readFile(query));
    await writeFile(reply, response);
    return { query, reply, response };
  }

  it('issues tokens that openssl verifies against the root, with the nonce checked from the query', async () => {
    for (const digest of ['-sha256', '-sha384', '-sha512']) {
      const { query, reply } = await stamp([digest, '-cert']);
      const byData = await openssl(['ts', '-verify', '-data', data, '-in', reply, '-CAfile', fixture.rootPem]);
      expect(byData.code, byData.stderr + byData.stdout).toBe(0);
      expect(byData.stdout).toContain('Verification: OK');
      const byQuery = await openssl(['ts', '-verify', '-queryfile', query, '-in', reply, '-CAfile', fixture.rootPem]);
      expect(byQuery.code, byQuery.stderr + byQuery.stdout).toBe(0);
    }
  });

  it('issues tokens that BouncyCastle validates strictly (nonce, imprint, policy, ESSCertIDv2, EKU, DER)', async () => {
    const pairs = [];
    for (const args of [['-sha256', '-cert'], ['-sha384', '-cert', '-tspolicy', DEFAULT_TSA_POLICY_OID], ['-sha512', '-cert']]) {
      const { query, reply } = await stamp(args);
      pairs.push({ query, reply });
    }
    const checked = await bouncyCastleCheck(dir, fixture.rootPem, pairs);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout.match(/^OK /gm)).toHaveLength(3);
    expect(checked.stdout).toContain(`policy=${DEFAULT_TSA_POLICY_OID}`);

    // and it fails on a reply for another query: the check can fail
    const other = await stamp(['-sha256', '-cert']);
    const mismatched = await bouncyCastleCheck(dir, fixture.rootPem, [{ query: pairs[0]!.query, reply: other.reply }]);
    expect(mismatched.code).not.toBe(0);
    expect(mismatched.stderr).toMatch(/TSPValidationException/);
  }, 60_000);

  it('leaves the certificate out unless certReq asks for it (openssl then needs it as -untrusted)', async () => {
    const { query, reply, response } = await stamp(['-sha256']);
    const signedData = AsnConvert.parse(readTimestampReply(response).token!, ContentInfo);
    expect(AsnConvert.parse(signedData.content, SignedData).certificates).toBeUndefined();
    const without = await openssl(['ts', '-verify', '-queryfile', query, '-in', reply, '-CAfile', fixture.rootPem]);
    expect(without.code).not.toBe(0);
    expect(without.stdout + without.stderr).toMatch(/signer certificate not found/);
    const withUntrusted = await openssl(['ts', '-verify', '-queryfile', query, '-in', reply, '-CAfile', fixture.rootPem, '-untrusted', fixture.tsaPem]);
    expect(withUntrusted.code, withUntrusted.stderr).toBe(0);
  });

  it('echoes the nonce and imprint, states policy, accuracy and TSA name, and signs the ESSCertIDv2 of its certificate', async () => {
    const nonce = Buffer.from('00d1e2f3a4b5c6d7e8', 'hex');
    const hash = randomBytes(32);
    const reply = readTimestampReply(await fixture.tsa.respond(request({ hash, nonce })));
    expect(reply.status).toBe(0);
    const info = reply.tstInfo!;
    expect(Buffer.from(info.nonce!).toString('hex')).toBe('00d1e2f3a4b5c6d7e8');
    expect(Buffer.from(info.messageImprint.hashedMessage.buffer).equals(hash)).toBe(true);
    expect(info.messageImprint.hashAlgorithm.algorithm).toBe(SHA256);
    expect(info.accuracy?.seconds).toBe(1);
    const tsaCertificate = new x509.X509Certificate(Uint8Array.from(fixture.tsa.certificates[0]!));
    expect(info.tsa?.directoryName && AsnConvert.serialize(info.tsa.directoryName)).toEqual(AsnConvert.serialize(AsnConvert.parse(tsaCertificate.subjectName.toArrayBuffer(), (await import('@peculiar/asn1-x509')).Name)));

    const text = await describeReply(await writeTemp(await fixture.tsa.respond(request({ nonce }))));
    expect(text).toMatch(/Status: Granted/);
    // (checked in openssl's rendering: asn1js prints OID arcs above 2^53 in hex)
    expect(text).toContain(`Policy OID: ${DEFAULT_TSA_POLICY_OID}`);
    expect(text).toMatch(/Nonce: 0xD1E2F3A4B5C6D7E8/i);
    expect(text).toMatch(/Accuracy: 0x01 seconds/);

    // signingCertificateV2 holds SHA-256 of the TSA certificate (the DEFAULT algorithm, so only the hash)
    const token = AsnConvert.parse(reply.token!, ContentInfo);
    const signerInfo = AsnConvert.parse(token.content, SignedData).signerInfos[0]!;
    const v2 = signerInfo.signedAttrs!.find((a) => a.attrType === '1.2.840.113549.1.9.16.2.47')!;
    const certHash = createHash('sha256').update(fixture.tsa.certificates[0]!).digest();
    expect(Buffer.from(v2.attrValues[0]!).includes(certHash)).toBe(true);
  });

  it('takes genTime from the clock, in UTC with milliseconds', async () => {
    const at = new Date('2031-05-06T07:08:09.120Z');
    await fixture.restart({ clock: { now: () => at } });
    const reply = readTimestampReply(await fixture.tsa.respond(request({})));
    expect(reply.tstInfo!.genTime.toISOString()).toBe(at.toISOString());
    const text = await describeReply(await writeTemp(await fixture.tsa.respond(request({}))));
    expect(text).toContain('Time stamp: May  6 07:08:09.12 2031 GMT');
    await fixture.restart();
  });

  it('has a TSA certificate with only the timeStamping EKU, critical, issued by its own root', () => {
    const [tsaDer, rootDer] = fixture.tsa.certificates;
    const tsa = new x509.X509Certificate(Uint8Array.from(tsaDer!));
    const root = new x509.X509Certificate(Uint8Array.from(rootDer!));
    const eku = tsa.getExtension(x509.ExtendedKeyUsageExtension)!;
    expect(eku.critical).toBe(true);
    expect(eku.usages).toEqual([x509.ExtendedKeyUsage.timeStamping]);
    expect(tsa.issuer).toBe(root.subject);
    expect(root.subject).toBe(root.issuer);
  });

  it('accepts its own policy and rejects any other with unacceptedPolicy', async () => {
    const own = await stamp(['-sha256', '-cert', '-tspolicy', DEFAULT_TSA_POLICY_OID]);
    expect((await openssl(['ts', '-verify', '-queryfile', own.query, '-in', own.reply, '-CAfile', fixture.rootPem])).code).toBe(0);
    const other = await stamp(['-sha256', '-tspolicy', '1.2.3.4.5']);
    const text = await describeReply(other.reply);
    expect(text).toMatch(/Status: Rejected/);
    expect(text).toContain('Failure info: the requested TSA policy is not supported by the TSA');
    expect(readTimestampReply(other.response)).toMatchObject({ status: 2, failInfo: ['unacceptedPolicy'] });
  });

  it('rejects SHA-1 and unknown imprint algorithms with badAlg', async () => {
    for (const digest of ['-sha1', '-md5', '-sha3-256']) {
      const { reply, response } = await stamp([digest]);
      expect(readTimestampReply(response), digest).toMatchObject({ status: 2, failInfo: ['badAlg'] });
      expect(await describeReply(reply)).toMatch(/unrecognized or unsupported algorithm/);
    }
  });

  it('rejects malformed requests with badDataFormat and wrong versions or extensions with the RFC failInfo', async () => {
    const good = request({});
    const cases: Array<[Uint8Array, string]> = [
      [Buffer.alloc(0), 'badDataFormat'],
      [Buffer.from('not DER at all'), 'badDataFormat'],
      [good.subarray(0, good.length - 1), 'badDataFormat'],
      [Buffer.concat([good, Buffer.from([0])]), 'badDataFormat'],
      [request({ hash: randomBytes(31) }), 'badDataFormat'],
      [request({ version: 2 }), 'badRequest'],
    ];
    for (const [body, failInfo] of cases) {
      expect(readTimestampReply(await fixture.tsa.respond(body))).toMatchObject({ status: 2, failInfo: [failInfo] });
    }
    const withExtension = Buffer.from(
      AsnConvert.serialize(
        new TimeStampReq({
          version: 1,
          messageImprint: new MessageImprint({ hashAlgorithm: new AlgorithmIdentifier({ algorithm: SHA256 }), hashedMessage: new OctetString(randomBytes(32)) }),
          extensions: new (await import('@peculiar/asn1-x509')).Extensions([new (await import('@peculiar/asn1-x509')).Extension({ extnID: '1.2.3.4', critical: false, extnValue: new OctetString(Buffer.from([5, 0])) })]),
        }),
      ),
    );
    expect(readTimestampReply(await fixture.tsa.respond(withExtension))).toMatchObject({ status: 2, failInfo: ['unacceptedExtension'] });
  });

  it('hands out unique, increasing serial numbers under concurrency and across restarts and crashes', async () => {
    const serialOf = (reply: Buffer): bigint => BigInt(`0x${Buffer.from(readTimestampReply(reply).tstInfo!.serialNumber).toString('hex')}`);
    const batch = async (tsa: TsaFixture['tsa'], count: number): Promise<bigint[]> =>
      (await Promise.all(Array.from({ length: count }, () => tsa.respond(request({ certReq: false }))))).map(serialOf);
    const max = (values: bigint[]): bigint => values.reduce((a, b) => (a > b ? a : b));
    const min = (values: bigint[]): bigint => values.reduce((a, b) => (a < b ? a : b));

    await fixture.restart({ serialBlockSize: 8 });
    const first = await batch(fixture.tsa, 50);
    await fixture.restart({ serialBlockSize: 8 });
    const afterRestart = await batch(fixture.tsa, 20);
    // A crash: the running authority holds a reserved block in memory; a new process opens the same store.
    const beforeCrash = await batch(fixture.tsa, 3);
    const successor = await fixture.openAfterCrash({ serialBlockSize: 8 });
    const afterCrash = await batch(successor.tsa, 20);
    await successor.close();

    const all = [...first, ...afterRestart, ...beforeCrash, ...afterCrash];
    expect(new Set(all).size).toBe(all.length);
    expect(min(afterRestart)).toBeGreaterThan(max(first));
    expect(min(afterCrash)).toBeGreaterThan(max([...afterRestart, ...beforeCrash]));
    // sequential requests are strictly increasing
    const sequential: bigint[] = [];
    for (let i = 0; i < 12; i++) sequential.push(...(await batch(fixture.tsa, 1)));
    expect([...sequential].sort((a, b) => (a < b ? -1 : 1))).toEqual(sequential);
    await fixture.restart();
  });

  it('keeps the private keys only encrypted: no key bytes in any file of the data directory', async () => {
    const names = (await fixture.database.all<{ key_name: string }>('SELECT key_name FROM tsa_certificates')).map((r) => r.key_name);
    expect(names).toHaveLength(2);
    const files = await Promise.all((await readdir(dir)).filter((f) => f.startsWith('station.sqlite')).map((f) => readFile(join(dir, f))));
    for (const name of names) {
      const pkcs8 = await fixture.vault.get(name);
      expect(pkcs8).not.toBeNull();
      // the private parts only (EC d; RSA d, p, q): the public key is in the certificates, in the clear
      const jwk = createPrivateKey({ key: Buffer.from(pkcs8!), format: 'der', type: 'pkcs8' }).export({ format: 'jwk' });
      const secrets = [jwk.d, jwk.p, jwk.q].filter((v): v is string => typeof v === 'string').map((v) => Buffer.from(v, 'base64url'));
      expect(secrets.length).toBeGreaterThan(0);
      for (const secret of secrets) for (const file of files) expect(file.includes(secret.subarray(0, 32))).toBe(false);
    }
  });

  async function writeTemp(bytes: Uint8Array): Promise<string> {
    step++;
    const path = join(dir, `t${step}.tsr`);
    await writeFile(path, bytes);
    return path;
  }
});
