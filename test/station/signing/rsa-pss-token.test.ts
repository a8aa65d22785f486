import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pkcs11js from 'pkcs11js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskSavedFile } from '../../../src/core/schemas/desk-api.js';
import { createSoftHsm, softHsmTokenSource, SOFTHSM_MODULE, type SoftHsm, type SoftHsmKey } from '../../support/pkcs11/pkcs11-softhsm.js';
import { bouncyCastleCheck, cmsSignatureAlgorithm, embeddedSignatures, jdkXmlDsigVerify, opensslCmsVerify } from '../../support/signing/signing-validators.js';
import { minimalPdf, writeMinimalPdf } from '../../support/signing/signing-test-pdfs.js';
import { extractZip } from '../../support/signing/signing-zip-extract.js';
import { runCli } from '../../support/station/run-cli.js';
import { launchChromium } from '../../support/browser/browser.js';
import { signWithPublishedClient, startIntegrator } from '../../support/browser/iframe-integrator.js';
import { downloadSigned, prepareDocument, signThroughHelperPage } from '../../support/signing/signing-session-client.js';
import { ScriptedPrompt } from '../../support/station/scripted-prompt.js';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { uiHeaders } from '../../support/station/ui-credential.js';

// ScriptedPrompt answers PIN prompts with 1234.
const PIN = '1234';
const LABEL = 'PSS Token';
const RSASSA_PSS = '1.2.840.113549.1.1.10';
const SHA256 = '2.16.840.1.101.3.4.2.1';
const onlySoftHsm = ['--no-known-modules', '--module', SOFTHSM_MODULE];
let softhsm: SoftHsm;
/** An rsaEncryption certificate whose key the token lets sign with CKM_RSA_PKCS_PSS only. */
let key: SoftHsmKey;
let dir: string;
let rootPath: string;

beforeAll(async () => {
  softhsm = await createSoftHsm();
  key = (
    await softhsm.createToken(LABEL, PIN, [
      { id: '0d', algorithm: 'RSA-2048', usage: 'signing', allowedMechanisms: [pkcs11js.CKM_RSA_PKCS_PSS] },
      // Allowed only a hash-and-sign mechanism, which would hash the station's precomputed hash again.
      { id: '0e', algorithm: 'RSA-2048', usage: 'signing', allowedMechanisms: [pkcs11js.CKM_SHA256_RSA_PKCS_PSS] },
    ])
  )[0]!;
  dir = await mkdtemp(join(tmpdir(), 'rsa-pss-token-'));
  rootPath = join(dir, 'root.pem');
  await writeFile(rootPath, softhsm.ca.pem);
});

afterAll(async () => {
  await softhsm?.dispose();
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[], stdin = '') {
  return runCli([...args, '--data-dir', join(dir, 'data'), ...onlySoftHsm], { stdin, env: { SOFTHSM2_CONF: softhsm.conf } });
}

/** The PDF's one CMS: its SignerInfo's algorithm, and what openssl cms and BouncyCastle say of it. */
async function checkPadesPss(pdf: string): Promise<void> {
  const [embedded] = embeddedSignatures(await readFile(pdf));
  expect(cmsSignatureAlgorithm(embedded!.cms)).toEqual({ oid: RSASSA_PSS, pss: { hash: SHA256, saltLength: 32 } });
  const cms = await opensslCmsVerify(embedded!.cms, embedded!.signedContent, rootPath);
  expect(cms.code, cms.stderr).toBe(0);
  const bc = await bouncyCastleCheck(embedded!.cms, embedded!.signedContent, rootPath, undefined);
  expect(bc.code, bc.stdout + bc.stderr).toBe(0);
}

/**
 * The container's XAdES names sha256-rsa-MGF1 and the JDK's XML-DSig validates it, references included; with its
 * data file changed, the same check fails.
 */
async function checkAsicePss(container: string, dataFile: string): Promise<void> {
  const root = await mkdtemp(join(dir, 'unzipped-'));
  await extractZip(container, root);
  const check = await jdkXmlDsigVerify(root, 'META-INF/signatures0.xml');
  expect(check.stdout).toContain('SignatureMethod http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1');
  expect(check.code, check.stdout + check.stderr).toBe(0);
  await writeFile(join(root, dataFile), 'changed after signing\n', { flag: 'a' });
  const tampered = await jdkXmlDsigVerify(root, 'META-INF/signatures0.xml');
  expect([tampered.code, tampered.stdout]).toEqual([1, expect.stringContaining(`Reference INVALID ${dataFile}`)]);
}

describe('RSA-PSS where the token mandates it (rsaEncryption certificate, CKA_ALLOWED_MECHANISMS = CKM_RSA_PKCS_PSS)', () => {
  it('the token really refuses PKCS#1 v1.5 for the key and signs PSS; tokens list says the key signs RSA-PSS only', async () => {
    const hash = '5a'.repeat(32);
    const pkcs1 = await cli(['tokens', 'sign-digest', '--token', LABEL, '--cert', '0d', '--hash', hash, '--scheme', 'pkcs1', '--pin-stdin'], `${PIN}\n`);
    expect(pkcs1.code).toBe(1);
    expect(pkcs1.stderr).toMatch(/CKR_MECHANISM_INVALID.*ERR_TOKEN_MECHANISM_REFUSED/);
    const pss = await cli(['tokens', 'sign-digest', '--token', LABEL, '--cert', '0d', '--hash', hash, '--scheme', 'pss', '--pin-stdin'], `${PIN}\n`);
    expect(pss.code, pss.stderr).toBe(0);
    // Without --scheme, sign-digest follows the token as the formats do.
    const chosen = await cli(['tokens', 'sign-digest', '--token', LABEL, '--cert', '0d', '--hash', hash, '--pin-stdin', '--json'], `${PIN}\n`);
    expect((JSON.parse(chosen.stdout) as { scheme: string }).scheme, chosen.stderr).toBe('RSA-PSS');
    const listed = await cli(['tokens', 'list', '--json']);
    const tokens = (JSON.parse(listed.stdout) as { tokens: Array<{ label: string; certificates: Array<{ id: string; signatureSchemes?: string[] }> }> }).tokens;
    expect(tokens.find((t) => t.label === LABEL)?.certificates.find((c) => c.id === '0d')?.signatureSchemes).toEqual(['RSA-PSS']);
  });

  it('sign --token: PAdES with a CMS naming RSASSA-PSS, accepted by openssl cms and BouncyCastle', async () => {
    const input = await writeMinimalPdf(join(dir, 'cli.pdf'));
    const out = join(dir, 'cli-signed.pdf');
    const result = await cli(['sign', input, '--out', out, '--token', LABEL, '--cert', '0d', '--pin-stdin', '--no-timestamp'], `${PIN}\n`);
    expect(result.code, result.stderr).toBe(0);
    await checkPadesPss(out);
  });

  it('sign --token refuses, before any PIN, a key its token allows no mechanism the station can sign a hash with; nothing is written', async () => {
    const input = await writeMinimalPdf(join(dir, 'hash-and-sign.pdf'));
    const out = join(dir, 'hash-and-sign-signed.pdf');
    const result = await cli(['sign', input, '--out', out, '--token', LABEL, '--cert', '0e', '--no-timestamp']);
    expect([result.code, result.stderr]).toEqual([1, expect.stringMatching(/RSASSA-PKCS1-v1_5 or RSA-PSS, and its token allows it no mechanism.*ERR_SIGNING_UNSUPPORTED_SIGNER/)]);
    await expect(stat(out)).rejects.toThrow();
  });

  it('sign --token: ASiC-E whose XAdES signs with sha256-rsa-MGF1, valid for the JDK XML-DSig', async () => {
    const input = join(dir, 'note.txt');
    await writeFile(input, 'signed with a PSS-only token\n');
    const out = join(dir, 'note.asice');
    const result = await cli(['sign', input, '--out', out, '--token', LABEL, '--cert', '0d', '--pin-stdin', '--no-timestamp'], `${PIN}\n`);
    expect(result.code, result.stderr).toBe(0);
    await checkAsicePss(out, 'note.txt');
  });

  describe('through the station: start-signing from its window or a web page, the token signs what was prepared', () => {
    let station: TestStation;
    let ui: { authorization: string; origin: string };

    beforeAll(async () => {
      const source = softHsmTokenSource();
      station = await startTestStation({}, { tokenSources: [source], userPrompt: new ScriptedPrompt() });
      ui = await uiHeaders(station.uiUrl());
    });

    afterAll(async () => {
      await station?.dispose();
    });

    async function call<T>(path: string, body: unknown, headers: Record<string, string> = ui): Promise<T> {
      const response = await fetch(`${station.baseUrl}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await response.text();
      expect(response.status, text).toBeLessThan(300);
      return JSON.parse(text) as T;
    }

    /** The window's flow: a desk session, start-signing with the token's certificate, the iframe helper's signature, complete, save. */
    async function signFromWindow(containerType: 'pdf' | 'asice', file: { fileName: string; mimeType: string; content: Buffer }): Promise<string> {
      const { docId, clientId } = await call<{ docId: string; clientId: string }>('/admin/api/desk/sessions', {
        containerType,
        files: [{ fileName: file.fileName, mimeType: file.mimeType, fileContent: file.content.toString('base64') }],
      });
      const certificate = Buffer.from(key.certificate.der).toString('base64');
      const method = 'certeurope-usb-token-signature';
      const start = await call<{ token: string; hexDigest: string }>('/api/signatures/start-signing', { client_id: clientId, doc_id: docId, sign_type: method, certificate }, { origin: ui.origin });
      const signed = await signThroughHelperPage(station.baseUrl, { clientId, method, docId, hexDigest: start.hexDigest, embeddingOrigin: ui.origin });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      await call(`/api/signatures/${method}/complete`, { client_id: clientId, doc_id: docId, token: start.token, signature_value: signed.body.signatures![0] }, { origin: ui.origin });
      return (await call<DeskSavedFile>(`/admin/api/desk/sessions/${docId}/save`, {})).path;
    }

    it('PAdES: the station prepares RSASSA-PSS for the token’s key, openssl cms and BouncyCastle accept it', async () => {
      await checkPadesPss(await signFromWindow('pdf', { fileName: 'window.pdf', mimeType: 'application/pdf', content: minimalPdf() }));
    });

    it('PAdES through the iframe helper, driven by the published browser client in Chromium: RSASSA-PSS again', async () => {
      const secret = 'shop-api-secret-0123456789';
      const integrator = await startIntegrator();
      const browser = await launchChromium();
      try {
        await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [integrator.origin] }, Buffer.from(secret));
        const integration = { baseUrl: station.baseUrl, clientId: 'shop', secret };
        const docId = await prepareDocument(integration);
        const page = await browser.newPage();
        await page.goto(`${integrator.origin}/`);
        const outcome = await signWithPublishedClient(page, { stationUrl: station.baseUrl, clientId: 'shop', docId, module: 'idCardSignature' });
        expect(outcome, outcome.detail).toMatchObject({ ok: true });
        const signed = join(dir, 'iframe-signed.pdf');
        await writeFile(signed, (await downloadSigned(integration, docId)).file);
        await checkPadesPss(signed);
      } finally {
        await browser.close();
        await integrator.close();
      }
    });

    it('ASiC-E: sha256-rsa-MGF1, valid for the JDK XML-DSig', async () => {
      await checkAsicePss(await signFromWindow('asice', { fileName: 'window.txt', mimeType: 'text/plain', content: Buffer.from('window note\n') }), 'window.txt');
    });
  });
});
