import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pkcs11js from 'pkcs11js';
import type { StationConfigInput } from '../../../src/station/config/station-config.js';
import { HttpTimestampClient } from '../../../src/station/tsa/http-timestamp-client.js';
import { TSA_PIN_ENV } from '../../../src/station/tsa/open-configured-tsa-signer.js';
import { x509 } from '../../../src/station/pki/x509.js';
import { createSoftHsm, SOFTHSM_MODULE, type SoftHsm, type SoftHsmKey } from '../../support/pkcs11/pkcs11-softhsm.js';
import { createTestCa } from '../../support/pki/test-pki.js';
import { startTestStation } from '../../support/station/test-station.js';
import { openssl } from '../../support/tsa/tsa-openssl.js';
import { bouncyCastleCheck } from '../../support/tsa/tsa-bouncycastle.js';
import { postRaw } from '../../support/tsa/tsa-http.js';
import { runCli } from '../../support/station/run-cli.js';

const LABEL = 'Station TSA';
const PIN = '462913';

describe('TSA key on a configured PKCS#11 token (SoftHSM2)', () => {
  let hsm: SoftHsm;
  let dir: string;
  let tsaKey: SoftHsmKey;
  let caPem: string;
  const tsaConfig = (token: Partial<NonNullable<StationConfigInput['tsa']>['token']> = {}): Partial<StationConfigInput> => ({
    pcsc: { enabled: false },
    tsa: { token: { label: LABEL, certificateId: '0A', module: SOFTHSM_MODULE, chainFile: caPem, ...token } },
  });

  beforeAll(async () => {
    hsm = await createSoftHsm();
    dir = await mkdtemp(join(tmpdir(), 'tsa-token-config-'));
    const keys = await hsm.createToken(LABEL, PIN, [
      { id: '0a', algorithm: 'P-256', usage: 'tsa' },
      { id: '0b', algorithm: 'RSA-2048', usage: 'signing' },
      // SoftHSM2 refuses every mechanism but CKM_RSA_PKCS_PSS for this key at C_SignInit.
      { id: '0c', algorithm: 'RSA-2048', usage: 'tsa', allowedMechanisms: [pkcs11js.CKM_RSA_PKCS_PSS] },
    ]);
    tsaKey = keys[0]!;
    caPem = join(dir, 'ca.pem');
    await writeFile(caPem, hsm.ca.pem);
  });
  afterAll(async () => {
    delete process.env[TSA_PIN_ENV];
    await hsm.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves timestamps signed by the token key, the token’s certificate as signer, that openssl verifies against the root', async () => {
    process.env[TSA_PIN_ENV] = PIN;
    const station = await startTestStation(tsaConfig());
    try {
      expect(process.env[TSA_PIN_ENV], 'the PIN is taken out of the environment').toBeUndefined();
      expect(station.tsa.certificates).toEqual([new Uint8Array(tsaKey.certificate.der), new Uint8Array(hsm.ca.der)]);
      await station.data.clients.upsert({ clientId: 'token-tsa', allowedIps: ['127.0.0.1'] });
      const client = new HttpTimestampClient({ url: `${station.baseUrl}/api/timestamp/token-tsa` });
      for (const text of ['first', 'second']) {
        const hash = createHash('sha256').update(text).digest();
        const tokenPath = join(dir, `${text}.tst`);
        await writeFile(tokenPath, await client.timestamp(hash, 'SHA-256'));
        const verified = await openssl(['ts', '-verify', '-digest', hash.toString('hex'), '-token_in', '-in', tokenPath, '-CAfile', caPem]);
        expect(verified.code, verified.stderr).toBe(0);
        const included = await openssl(['pkcs7', '-inform', 'DER', '-in', tokenPath, '-print_certs']);
        const pems = included.stdout.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
        expect(pems.map((pem) => new x509.X509Certificate(pem).subject)).toEqual([tsaKey.certificate.certificate.subject]);
      }
      // The TSA's login can end under it (the token's idle logout, SoftHSM's re-initialisation to see new tokens):
      // the next timestamp must log in again from the held PIN.
      const tsaToken = (await station.tokens.readyTokens()).find((token) => token.label === LABEL);
      await tsaToken!.release();
      const later = createHash('sha256').update('after re-initialise').digest();
      const laterPath = join(dir, 'later.tst');
      await writeFile(laterPath, await client.timestamp(later, 'SHA-256'));
      expect((await openssl(['ts', '-verify', '-digest', later.toString('hex'), '-token_in', '-in', laterPath, '-CAfile', caPem])).code).toBe(0);
      // Against another root the same token does not verify: the check above is not vacuous.
      const otherCa = join(dir, 'other-ca.pem');
      await writeFile(otherCa, (await createTestCa('CN=Other Root,O=Signing Station Tests')).pem);
      const refused = await openssl(['ts', '-verify', '-digest', createHash('sha256').update('second').digest('hex'), '-token_in', '-in', join(dir, 'second.tst'), '-CAfile', otherCa]);
      expect(refused.code).not.toBe(0);
      expect(refused.stdout + refused.stderr).toMatch(/unable to get local issuer certificate/);
    } finally {
      await station.dispose();
    }
  });

  it('signs RSASSA-PSS with a key its token lets sign PSS only, in tokens BouncyCastle and openssl cms verify', async () => {
    process.env[TSA_PIN_ENV] = PIN;
    const station = await startTestStation(tsaConfig({ certificateId: '0c' }));
    try {
      await station.data.clients.upsert({ clientId: 'pss-tsa', allowedIps: ['127.0.0.1'] });
      const data = join(dir, 'pss-data.txt');
      await writeFile(data, 'timestamped with RSA-PSS');
      const query = join(dir, 'pss.tsq');
      expect((await openssl(['ts', '-query', '-data', data, '-sha256', '-cert', '-out', query])).code).toBe(0);
      const answer = await postRaw(`${station.baseUrl}/api/timestamp/pss-tsa`, await readFile(query), { headers: { 'content-type': 'application/timestamp-query' } });
      expect(answer.status).toBe(200);
      const reply = join(dir, 'pss.tsr');
      await writeFile(reply, answer.body);
      const checked = await bouncyCastleCheck(dir, caPem, [{ query, reply }]);
      expect(checked.code, checked.stderr).toBe(0);
      expect(checked.stdout).toMatch(/^OK serial=/);
      // The token is CMS SignedData whose SignerInfo names id-RSASSA-PSS with SHA-256, MGF1-SHA-256 and a 32-byte salt.
      const token = join(dir, 'pss.tst');
      expect((await openssl(['ts', '-reply', '-in', reply, '-token_out', '-out', token])).code).toBe(0);
      const printed = await openssl(['cms', '-cmsout', '-print', '-inform', 'DER', '-in', token]);
      expect(printed.stdout).toMatch(/signatureAlgorithm: \s+algorithm: rsassaPss \(1\.2\.840\.113549\.1\.1\.10\)\s+parameter: SEQUENCE:\s+.*\n.*cont \[ 0 \]\s+.*\n.*:sha256\s+.*cont \[ 1 \]\s+.*\n.*:mgf1\s+.*\n.*:sha256\s+.*cont \[ 2 \]\s+.*INTEGER\s+:20\s/);
      // Not `openssl ts -verify`: its PKCS#7 code checks PKCS#1 v1.5 padding whatever the SignerInfo names.
      const verified = await openssl(['cms', '-verify', '-inform', 'DER', '-in', token, '-binary', '-CAfile', caPem, '-purpose', 'timestampsign', '-out', '/dev/null']);
      expect(verified.code, verified.stderr).toBe(0);
    } finally {
      await station.dispose();
    }
  });

  it('refuses to start with a wrong PIN, and releases the data directory for the next start', async () => {
    const dataDir = await mkdtemp(join(dir, 'data-'));
    process.env[TSA_PIN_ENV] = '000000';
    await expect(startTestStation({ ...tsaConfig(), dataDir })).rejects.toMatchObject({ code: 'ERR_TSA_TOKEN_PIN_INCORRECT', message: expect.stringContaining(TSA_PIN_ENV) });
    process.env[TSA_PIN_ENV] = PIN;
    const station = await startTestStation({ ...tsaConfig(), dataDir });
    expect(station.tsa.certificates[0]).toEqual(new Uint8Array(tsaKey.certificate.der));
    await station.close();
  });

  it('refuses to start without the PIN in the environment', async () => {
    delete process.env[TSA_PIN_ENV];
    await expect(startTestStation(tsaConfig())).rejects.toMatchObject({ code: 'ERR_TSA_TOKEN_PIN_MISSING', message: expect.stringContaining(TSA_PIN_ENV) });
  });

  it('refuses to start when the token is not there, naming the label and the module setting', async () => {
    process.env[TSA_PIN_ENV] = PIN;
    await expect(startTestStation(tsaConfig({ label: 'Absent TSA' }))).rejects.toMatchObject({
      code: 'ERR_TSA_TOKEN_NOT_FOUND',
      message: expect.stringMatching(/"Absent TSA".*tsa\.token\.module.*"Station TSA"/),
    });
  });

  it('refuses a certificate id that is not on the token, and a certificate that is not a TSA certificate', async () => {
    process.env[TSA_PIN_ENV] = PIN;
    await expect(startTestStation(tsaConfig({ certificateId: '7f' }))).rejects.toMatchObject({ code: 'ERR_TSA_TOKEN_CERTIFICATE_NOT_FOUND' });
    process.env[TSA_PIN_ENV] = PIN;
    await expect(startTestStation(tsaConfig({ certificateId: '0b' }))).rejects.toMatchObject({ code: 'ERR_TSA_CERTIFICATE_INVALID' });
  });

  it('refuses a chain file that does not lead to the TSA certificate’s root', async () => {
    const wrongChain = join(dir, 'wrong-chain.pem');
    await writeFile(wrongChain, (await createTestCa('CN=Unrelated Root,O=Signing Station Tests')).pem);
    process.env[TSA_PIN_ENV] = PIN;
    await expect(startTestStation(tsaConfig({ chainFile: wrongChain }))).rejects.toMatchObject({ code: 'ERR_TSA_TOKEN_CHAIN_INVALID' });
  });

  it('takes no PIN in the config file', async () => {
    const config = tsaConfig();
    await expect(startTestStation({ ...config, tsa: { token: { ...config.tsa!.token, pin: PIN } as never } })).rejects.toMatchObject({ code: 'ERR_INPUT_INVALID' });
  });

  it('`tsa chain` prints the configured token’s chain, TSA certificate first, root last, without a PIN', async () => {
    const dataDir = await mkdtemp(join(dir, 'cli-'));
    const configFile = join(dir, 'station.json');
    await writeFile(configFile, JSON.stringify({ dataDir, ...tsaConfig() }));
    const printed = await runCli(['tsa', 'chain', '--config', configFile], { env: { [TSA_PIN_ENV]: '' } });
    expect(printed.code, printed.stderr).toBe(0);
    const pems = printed.stdout.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    expect(pems.map((pem) => new Uint8Array(new x509.X509Certificate(pem).rawData))).toEqual([new Uint8Array(tsaKey.certificate.der), new Uint8Array(hsm.ca.der)]);
  });
});
