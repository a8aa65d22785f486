import { createPrivateKey, webcrypto } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrivateKeyInfo } from '@peculiar/asn1-pkcs8';
import { AsnConvert } from '@peculiar/asn1-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x509 } from '../../../src/station/pki/x509.js';
import { SignatureEngine } from '../../../src/station/signing/signature-engine.js';
import { softKeySigner } from '../../../src/station/signing/soft-key-signer.js';
import { bouncyCastleCheck, cmsSignatureAlgorithm, createNssDb, embeddedSignatures, opensslCmsVerify, pdfsig, run } from '../../support/signing/signing-validators.js';
import { writeMinimalPdf } from '../../support/signing/signing-test-pdfs.js';
import { extractZip } from '../../support/signing/signing-zip-extract.js';
import { createTestCa, type TestCa } from '../../support/pki/test-pki.js';

let dir: string;
let ca: TestCa;
let rootPath: string;
let nss: string;
/** A certificate whose key is id-RSASSA-PSS (made by openssl): only PSS signatures are valid for it. */
let pssCertificate: Uint8Array;
/** The same key as plain RSA PKCS#8, as a token or PKCS#12 file would hand it to the signer. */
let pssKey: Uint8Array;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rsa-pss-'));
  ca = await createTestCa('CN=PSS Test Root,O=Signing Station Tests,C=EE');
  rootPath = join(dir, 'root.pem');
  await writeFile(rootPath, ca.pem);
  const caKey = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', ca.keys.privateKey)).toString('base64');
  await writeFile(join(dir, 'ca.key'), `-----BEGIN PRIVATE KEY-----\n${caKey}\n-----END PRIVATE KEY-----\n`);
  await writeFile(join(dir, 'ext.cnf'), 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,nonRepudiation\nauthorityKeyIdentifier=keyid\nsubjectKeyIdentifier=hash\n');
  const openssl = async (args: string[]) => {
    const result = await run('openssl', args, { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
  };
  await openssl(['genpkey', '-algorithm', 'RSA-PSS', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'pss.key']);
  await openssl(['req', '-new', '-key', 'pss.key', '-subj', '/CN=Pille Pss/O=Signing Station Tests/C=EE', '-out', 'pss.csr']);
  await openssl(['x509', '-req', '-in', 'pss.csr', '-CA', 'root.pem', '-CAkey', 'ca.key', '-set_serial', '0x5053', '-days', '30', '-extfile', 'ext.cnf', '-out', 'pss.pem']);
  pssCertificate = new Uint8Array(new x509.X509Certificate(await readFile(join(dir, 'pss.pem'), 'utf8')).rawData);
  // The PSS PKCS#8 wraps a plain RSAPrivateKey; unwrapped, it is the same key with the rsaEncryption label.
  const pssPkcs8 = createPrivateKey(await readFile(join(dir, 'pss.key'))).export({ format: 'der', type: 'pkcs8' });
  const pkcs1 = Buffer.from(AsnConvert.parse(pssPkcs8, PrivateKeyInfo).privateKey.buffer);
  pssKey = new Uint8Array(createPrivateKey({ key: pkcs1, format: 'der', type: 'pkcs1' }).export({ format: 'der', type: 'pkcs8' }));
  nss = await createNssDb(join(dir, 'nss'), ca.pem);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('RSA-PSS where the certificate mandates it', () => {
  it('PAdES: the CMS names RSASSA-PSS (SHA-256, MGF1, 32-byte salt); pdfsig, openssl cms and BouncyCastle accept it', async () => {
    const input = await writeMinimalPdf(join(dir, 'pss.pdf'));
    const output = join(dir, 'pss-signed.pdf');
    await SignatureEngine.sign('pades', input, { certificate: pssCertificate, issuers: [ca.der], sign: softKeySigner(pssKey) }, { outputPath: output });
    const [embedded] = embeddedSignatures(await readFile(output));
    expect(cmsSignatureAlgorithm(embedded!.cms)).toEqual({ oid: '1.2.840.113549.1.1.10', pss: { hash: '2.16.840.1.101.3.4.2.1', saltLength: 32 } });
    const cms = await opensslCmsVerify(embedded!.cms, embedded!.signedContent, rootPath);
    expect(cms.code, cms.stderr).toBe(0);
    const bc = await bouncyCastleCheck(embedded!.cms, embedded!.signedContent, rootPath, undefined);
    expect(bc.code, bc.stdout + bc.stderr).toBe(0);
    // pdfsig of this poppler (22.12, NSS) reports RSASSA-PSS SignerInfos invalid: one made by `openssl cms -sign
    // -keyopt rsa_padding_mode:pss` over the same bytes too, while openssl and BouncyCastle verify ours. It still
    // finds the signature and its signer.
    const report = await pdfsig(nss, output);
    expect(report.signatures[0]!.text).toContain('CN=Pille Pss');
  });

  it('a PKCS#1 v1.5 value for a PSS certificate is refused as not matching the certificate', async () => {
    const input = await writeMinimalPdf(join(dir, 'pss-wrong.pdf'));
    const pkcs1v15 = softKeySigner(pssKey);
    const signing = SignatureEngine.sign('pades', input, { certificate: pssCertificate, sign: (hash, hashAlgorithm) => pkcs1v15(hash, hashAlgorithm, 'RSASSA-PKCS1-v1_5') }, { outputPath: join(dir, 'pss-wrong-signed.pdf') });
    await expect(signing).rejects.toMatchObject({ code: 'ERR_SIGNING_SIGNATURE_INVALID' });
  });

  it('ASiC-E: XAdES SignatureMethod sha256-rsa-MGF1, and the value verifies as PSS with openssl over the SignedInfo', async () => {
    const input = join(dir, 'pss-note.txt');
    await writeFile(input, 'PSS note\n');
    const output = join(dir, 'pss.asice');
    const prepared = await SignatureEngine.prepare('asice', input, { certificate: pssCertificate, issuers: [ca.der] });
    expect(prepared.signatureScheme).toBe('RSA-PSS');
    const value = await softKeySigner(pssKey)(Buffer.from(prepared.dataToSignDigest, 'hex'), prepared.digestAlgorithm, prepared.signatureScheme);
    await SignatureEngine.finish(prepared.state, value, { outputPath: output });
    const root = await mkdtemp(join(dir, 'unzipped-'));
    await extractZip(output, root);
    const xml = await readFile(join(root, 'META-INF/signatures0.xml'), 'utf8');
    expect(xml).toContain('<ds:SignatureMethod Algorithm="http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1"/>');
    // xmlsec1 1.2.37 has no RSA-PSS: openssl checks the value in the container over the canonical SignedInfo.
    const signatureValue = /<ds:SignatureValue[^>]*>([^<]+)</.exec(xml)![1]!;
    await writeFile(join(dir, 'signed-info.xml'), Buffer.from(prepared.dataToSign, 'base64'));
    await writeFile(join(dir, 'signature.bin'), Buffer.from(signatureValue, 'base64'));
    expect(Buffer.from(prepared.dataToSign, 'base64').toString()).toContain('sha256-rsa-MGF1');
    await run('openssl', ['x509', '-in', 'pss.pem', '-pubkey', '-noout', '-out', 'pss-pub.pem'], { cwd: dir });
    const check = (padding: string) =>
      run('openssl', ['dgst', '-sha256', '-sigopt', `rsa_padding_mode:${padding}`, ...(padding === 'pss' ? ['-sigopt', 'rsa_pss_saltlen:32'] : []), '-verify', 'pss-pub.pem', '-signature', 'signature.bin', 'signed-info.xml'], { cwd: dir });
    expect((await check('pss')).stdout).toContain('Verified OK');
    expect((await check('pkcs1')).stdout).not.toContain('Verified OK');
  });
});
