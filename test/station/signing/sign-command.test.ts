import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSignCommand } from '../../../src/cli/commands/sign-command.js';
import { pkcs12SignerResolver } from '../../../src/cli/commands/pkcs12-signer-resolver.js';
import { StationError } from '../../../src/core/errors/station-error.js';
import { createOpensslTsa, type OpensslTsa } from '../../support/tsa/openssl-tsa.js';
import { writeMinimalPdf } from '../../support/signing/signing-test-pdfs.js';
import { HOSTILE_PDFS } from '../../support/signing/hostile-pdf.js';
import { bouncyCastleCheck, cmsParts, createNssDb, embeddedSignatures, opensslTsVerify, pdfsig, xmlsecVerify } from '../../support/signing/signing-validators.js';
import { extractZip } from '../../support/signing/signing-zip-extract.js';
import { createTestCa, createTestSigner } from '../../support/pki/test-pki.js';
import { cliPath } from '../../support/station/run-cli.js';
import { displayedPage, inkInRegion, textInRegion } from '../../support/signing/pdf-region.js';
import { EXPECTED_STAMP_LABELS, STAMP_LANGUAGES } from '../../support/signing/stamp-label-texts.js';

const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n')}\n-----END ${label}-----\n`;

/** In-process run with the password handed over directly: for cases that need no real stdin or stderr. */
async function signInProcess(args: string[], password = 'pässword'): Promise<{ code: number; error?: StationError }> {
  const program = new Command('signing-station').exitOverride().configureOutput({ writeErr: () => undefined });
  registerSignCommand(program, (options, context) => pkcs12SignerResolver(options, { ...context, readSecret: async () => Buffer.from(password) }));
  try {
    await program.parseAsync(['node', 'signing-station', 'sign', ...args, '--data-dir', join(dir, 'data')]);
    return { code: 0 };
  } catch (error) {
    if (error instanceof StationError) return { code: 1, error };
    throw error;
  }
}

async function runTsaChain(): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [cliPath, 'tsa', 'chain', '--data-dir', join(dir, 'data')]);
  return stdout;
}

/** The command in a child process: real stdin for --pin-stdin, real stderr for progress. */
function signCli(args: string[], stdin = ''): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, 'sign', ...args, '--data-dir', join(dir, 'data')]);
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end(stdin);
  });
}

let dir: string;
let rootPath: string;
let nss: string;
let tsa: OpensslTsa;
let tsaHttp: { url: string; close: () => Promise<void> };
let p12: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sign-cli-test-'));
  const ca = await createTestCa();
  rootPath = join(dir, 'root.pem');
  await writeFile(rootPath, ca.pem);
  const signer = await createTestSigner(ca, 'CN=Mari Mägi,O=Signing Station Tests,C=EE', 'RSA-2048');
  await writeFile(join(dir, 'key.pem'), pem('PRIVATE KEY', signer.pkcs8));
  await writeFile(join(dir, 'cert.pem'), signer.pem);
  p12 = join(dir, 'signer.p12');
  await promisify(execFile)('openssl', ['pkcs12', '-export', '-in', join(dir, 'cert.pem'), '-inkey', join(dir, 'key.pem'), '-certfile', rootPath, '-out', p12, '-passout', 'pass:pässword']);
  [tsa, nss] = await Promise.all([createOpensslTsa(dir), createNssDb(join(dir, 'nss'), ca.pem)]);
  tsaHttp = await tsa.serveHttp();
});

afterAll(async () => {
  await tsaHttp?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('signing-station sign', () => {
  it('signs a PDF from a PKCS#12 file with the password on stdin, a reason, a visible field and an HTTP TSA', async () => {
    const input = await writeMinimalPdf(join(dir, 'in.pdf'));
    const out = join(dir, 'out.pdf');
    const result = await signCli([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--reason', 'Agreed', '--visible', '--tsa', tsaHttp.url], 'pässword\n');
    expect(result.code, result.stderr).toBe(0);
    const report = await pdfsig(nss, out);
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]!.valid && report.signatures[0]!.trusted && report.signatures[0]!.totalDocumentSigned, report.output).toBe(true);
    const pdf = await readFile(out);
    expect(pdf.toString('latin1')).toContain('/Reason (Agreed)');
    const [e] = embeddedSignatures(pdf);
    const parts = cmsParts(e!.cms);
    expect((await opensslTsVerify(parts.signatureValue, parts.timestampToken!, tsa.rootPath)).code).toBe(0);
    const bc = await bouncyCastleCheck(e!.cms, e!.signedContent, rootPath, tsa.rootPath);
    expect(bc.code, bc.stdout).toBe(0);
  });

  it('--visible --page N --rect x1,y1,x2,y2 puts the box at that place on that page: its text reads back there, pdfsig accepts', async () => {
    const onePage = await writeMinimalPdf(join(dir, 'one-page.pdf'));
    const input = join(dir, 'two-pages.pdf');
    await promisify(execFile)('qpdf', ['--empty', '--pages', onePage, onePage, '--', input]);
    const out = join(dir, 'placed.pdf');
    const result = await signCli([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--reason', 'Placed on page two', '--visible', '--page', '2', '--rect', '300,480,580,580', '--no-timestamp'], 'pässword\n');
    expect(result.code, result.stderr).toBe(0);
    const report = await pdfsig(nss, out);
    expect(report.signatures.map((s) => s.valid && s.totalDocumentSigned), report.output).toEqual([true]);
    // The rectangle in pdftotext's terms: from the top-left corner of the displayed page.
    const { height } = await displayedPage(out, 2);
    const box = { x: 300, y: height - 580, width: 280, height: 100 };
    expect((await textInRegion(out, 2, box)).replace(/\s+/g, ' ')).toMatch(/Mari Mägi.*Placed on page two/);
    expect(await textInRegion(out, 1, box)).not.toContain('Mari');
    // Nothing of the box outside it: the region just left of it on page 2 stays as blank as before.
    const left = { x: 200, y: height - 580, width: 96, height: 100 };
    expect([await inkInRegion(input, 2, left), await inkInRegion(out, 2, left)]).toEqual([0, 0]);
  });

  it('--stamp-language writes the visible signature’s labels in each of the five languages', async () => {
    const input = await writeMinimalPdf(join(dir, 'stamp-language.pdf'));
    for (const language of STAMP_LANGUAGES) {
      const out = join(dir, `stamp-language-${language}.pdf`);
      const result = await signInProcess([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--reason', 'Kokku lepitud', '--visible', '--stamp-language', language, '--no-timestamp']);
      expect(result, language).toEqual({ code: 0 });
      const text = (await textInRegion(out, 1, { x: 0, y: 0, width: 612, height: 792 })).replace(/\s+/g, ' ');
      const labels = EXPECTED_STAMP_LABELS[language];
      expect(text, language).toContain(`${labels.signedBy} Mari Mägi`);
      expect(text, language).toMatch(new RegExp(`${labels.date} \\d{4}-\\d{2}-\\d{2} `));
      expect(text, language).toContain(`${labels.reason} Kokku lepitud`);
    }
  });

  it('refuses a page or rectangle that cannot be, as a usage error (exit 2), writing nothing', async () => {
    const input = await writeMinimalPdf(join(dir, 'placement.pdf'));
    const out = join(dir, 'placement-signed.pdf');
    const sign = (...placement: string[]) => signCli([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--no-timestamp', ...placement], 'pässword\n');
    const refusals: Array<[string[], RegExp]> = [
      [['--visible', '--page', '0'], /--page.*a page number is a whole number from 1/],
      [['--visible', '--page', 'two'], /--page.*a page number is a whole number from 1/],
      [['--visible', '--rect', '36,36,300'], /--rect.*four numbers x1,y1,x2,y2/],
      [['--visible', '--rect', '36,36,300,abc'], /--rect.*four numbers x1,y1,x2,y2/],
      [['--visible', '--rect', '300,36,36,110'], /--rect.*x2 must be right of x1/],
      [['--page', '1'], /--page and --rect place the visible signature: add --visible.*ERR_INPUT_INVALID/],
      [['--stamp-language', 'et'], /--stamp-language is the visible signature’s language: add --visible.*ERR_INPUT_INVALID/],
      [['--visible', '--stamp-language', 'fi'], /--stamp-language.*fi.*Allowed choices are en, et, lv, lt, ru/],
      [['--visible', '--page', '2'], /There is no page 2: the document has 1 pages.*ERR_SIGNING_INVALID_PLACEMENT/],
      [['--visible', '--rect', '400,700,700,780'], /outside the visible page \(612 x 792 pt.*ERR_SIGNING_INVALID_PLACEMENT/],
      [['--visible', '--rect', '36,36,300,40'], /too small for its text.*ERR_SIGNING_INVALID_PLACEMENT/],
    ];
    for (const [placement, message] of refusals) {
      const result = await sign(...placement);
      expect([result.code, result.stderr], placement.join(' ')).toEqual([2, expect.stringMatching(message)]);
    }
    await expect(stat(out)).rejects.toThrow();
  });

  it('signs any other file as ASiC-E', async () => {
    const input = join(dir, 'note.txt');
    await writeFile(input, 'note');
    const out = join(dir, 'note.asice');
    const result = await signInProcess([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--reason', 'Seen', '--no-timestamp']);
    expect(result.code, result.error?.message).toBe(0);
    const root = join(dir, 'note-unzipped');
    await extractZip(out, root);
    const xmlsec = await xmlsecVerify(root, 'META-INF/signatures0.xml', rootPath);
    expect(xmlsec.code, xmlsec.stderr).toBe(0);
  });

  it('never overwrites: an existing --out is refused unless --force, and the input never', async () => {
    const input = await writeMinimalPdf(join(dir, 'keep.pdf'));
    const out = join(dir, 'existing.pdf');
    await writeFile(out, 'precious');
    const refused = await signInProcess([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--no-timestamp']);
    expect(refused.error?.message).toMatch(/Refusing to overwrite .*--force/);
    expect(await readFile(out, 'utf8')).toBe('precious');
    const before = await readFile(input);
    const self = await signInProcess([input, '--out', input, '--force', '--pkcs12', p12, '--pin-stdin', '--no-timestamp']);
    expect(self.error?.code).toBe('ERR_SIGNING_OUTPUT_EXISTS');
    expect(await readFile(input)).toEqual(before);
    const forced = await signInProcess([input, '--out', out, '--force', '--pkcs12', p12, '--pin-stdin', '--no-timestamp']);
    expect(forced.code, forced.error?.message).toBe(0);
    expect((await pdfsig(nss, out)).signatures[0]!.valid).toBe(true);
    expect((await readdir(dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('fails cleanly on a wrong password, conflicting timestamp choices, and an unavailable token', async () => {
    const input = await writeMinimalPdf(join(dir, 'fail.pdf'));
    const out = join(dir, 'fail-out.pdf');
    const wrong = await signInProcess([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--no-timestamp'], 'nope');
    expect(wrong.error?.code).toBe('ERR_SIGNING_PKCS12_UNREADABLE');
    const both = await signInProcess([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--tsa', tsaHttp.url, '--no-timestamp']);
    expect(both.error?.code).toBe('ERR_INPUT_INVALID');
    expect(both.error?.message).toContain('--tsa and --no-timestamp');
    const token = await signInProcess([input, '--out', out, '--token', 'TestToken', '--cert', '01', '--no-timestamp']);
    expect(token.error?.message).toContain('PKCS#11');
    const visibleAsice = await signInProcess([join(dir, 'note.txt'), '--out', out, '--pkcs12', p12, '--visible', '--no-timestamp']);
    expect(visibleAsice.error?.message).toContain('--visible');
    await expect(stat(out)).rejects.toThrow();
  });

  it('reads the document before it opens a token or asks a PIN: a hostile PDF is refused first, writing nothing', async () => {
    const input = join(dir, 'hostile.pdf');
    await writeFile(input, HOSTILE_PDFS.selfReferencingLength());
    const out = join(dir, 'hostile-out.pdf');
    const result = await signInProcess([input, '--out', out, '--token', 'TestToken', '--cert', '01', '--no-timestamp']);
    expect(result.error).toMatchObject({ code: 'ERR_SIGNING_UNSUPPORTED_DOCUMENT', message: expect.stringMatching(/valid \/Length/) });
    await expect(stat(out)).rejects.toThrow();
  });

  it('takes --baseline: --no-timestamp is B-B only, unknown levels are refused, B-B has no timestamp', async () => {
    const input = await writeMinimalPdf(join(dir, 'baseline.pdf'));
    const out = join(dir, 'baseline-out.pdf');
    const noTimestamp = await signInProcess([input, '--out', out, '--pkcs12', p12, '--baseline', 'B-LT', '--no-timestamp']);
    expect(noTimestamp.error?.message).toContain('--no-timestamp is the B-B level; --baseline B-LT needs a timestamp');
    await expect(signInProcess([input, '--out', out, '--pkcs12', p12, '--baseline', 'B-X', '--no-timestamp'])).rejects.toThrow(/Allowed choices are B-B, B-T, B-LT, B-LTA/);
    await expect(stat(out)).rejects.toThrow();
    const bb = await signInProcess([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--baseline', 'B-B']);
    expect(bb.code, bb.error?.message).toBe(0);
    expect(cmsParts(embeddedSignatures(await readFile(out))[0]!.cms).timestampToken).toBeUndefined();
  });

  it('writes beside the input by default, never over an earlier signed copy, timestamped by the station’s own TSA', async () => {
    const input = await writeMinimalPdf(join(dir, 'default.pdf'));
    const first = await signCli([input, '--pkcs12', p12, '--pin-stdin'], 'pässword\n');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`signed: ${join(dir, 'default.signed.pdf')}`);
    const second = await signCli([input, '--pkcs12', p12, '--pin-stdin'], 'pässword\n');
    expect(second.stderr).toContain(`signed: ${join(dir, 'default.signed (2).pdf')}`);
    const [e] = embeddedSignatures(await readFile(join(dir, 'default.signed.pdf')));
    const parts = cmsParts(e!.cms);
    expect(parts.timestampToken).toBeDefined();
    const chain = await runTsaChain();
    const stationRoot = join(dir, 'station-tsa-root.pem');
    await writeFile(stationRoot, chain.slice(chain.lastIndexOf('-----BEGIN CERTIFICATE-----')));
    expect((await opensslTsVerify(parts.signatureValue, parts.timestampToken!, stationRoot)).code).toBe(0);
    const note = join(dir, 'memo.txt');
    await writeFile(note, 'memo');
    const asice = await signCli([note, '--pkcs12', p12, '--pin-stdin', '--no-timestamp'], 'pässword\n');
    expect(asice.stderr).toContain(`signed: ${join(dir, 'memo.asice')}`);
  });
});
