// Independent validators for signed PDFs and ASiC-E containers: poppler's pdfsig (NSS), openssl cms / ts,
// BouncyCastle (a small Java checker compiled here with Debian's javac), xmlsec1. Each returns what it saw so
// tests assert on it; none of them shares code with the station.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const execFileAsync = promisify(execFile);

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function run(command: string, args: string[], options: { cwd?: string } = {}): Promise<RunResult> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, { ...options, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** An NSS database trusting `rootPem` for pdfsig. */
export async function createNssDb(dir: string, rootPem: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'root.pem'), rootPem);
  await execFileAsync('certutil', ['-N', '-d', `sql:${dir}`, '--empty-password']);
  await execFileAsync('certutil', ['-A', '-d', `sql:${dir}`, '-n', 'test-root', '-t', 'CT,C,C', '-i', join(dir, 'root.pem')]);
  return dir;
}

export interface PdfsigSignature {
  valid: boolean;
  trusted: boolean;
  totalDocumentSigned: boolean;
  subFilter: string | undefined;
  text: string;
}

/** Runs pdfsig and splits its report per signature (its exit code says nothing about validity). */
export async function pdfsig(nssDir: string, file: string): Promise<{ signatures: PdfsigSignature[]; output: string }> {
  const result = await run('pdfsig', ['-nssdir', `sql:${nssDir}`, file]);
  const output = result.stdout + result.stderr;
  const parts = output.split(/^Signature #\d+:$/m).slice(1);
  return {
    output,
    signatures: parts.map((text) => ({
      valid: /Signature Validation: Signature is Valid\./.test(text),
      trusted: /Certificate Validation: Certificate is Trusted\./.test(text),
      totalDocumentSigned: /Total document signed/.test(text),
      subFilter: /Signature Type: (\S+)/.exec(text)?.[1],
      text,
    })),
  };
}

/**
 * `qpdf --check`: the file's structure (cross-reference sections, object offsets, streams) read strictly. pdfsig
 * cannot tell, because poppler silently rebuilds a broken cross-reference table.
 */
export async function qpdfCheck(file: string): Promise<RunResult> {
  return run('qpdf', ['--check', file]);
}

export interface EmbeddedPdfSignature {
  byteRange: [number, number, number, number];
  /** The CMS, without the zero padding of /Contents. */
  cms: Uint8Array;
  /** The signed bytes (both ranges concatenated). */
  signedContent: Buffer;
}

/** Every signature in a PDF, found by its /ByteRange, in file order. */
export function embeddedSignatures(pdf: Buffer): EmbeddedPdfSignature[] {
  const text = pdf.toString('latin1');
  const out: EmbeddedPdfSignature[] = [];
  for (const m of text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    const byteRange = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] as [number, number, number, number];
    const hex = text.slice(byteRange[1] + 1, byteRange[2] - 1);
    const padded = Buffer.from(hex, 'hex');
    const parsed = asn1js.fromBER(padded);
    const cms = new Uint8Array(padded.subarray(0, parsed.offset));
    const signedContent = Buffer.concat([pdf.subarray(byteRange[0], byteRange[0] + byteRange[1]), pdf.subarray(byteRange[2], byteRange[2] + byteRange[3])]);
    out.push({ byteRange, cms, signedContent });
  }
  return out;
}

/** The signature value and the signature timestamp token (if any) of a CMS SignedData. */
export function cmsParts(cms: Uint8Array): { signatureValue: Uint8Array; timestampToken: Uint8Array | undefined; signedAttributeTypes: string[]; certificates: Buffer[] } {
  const signedData = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(new Uint8Array(cms)).content });
  const signer = signedData.signerInfos[0]!;
  const token = signer.unsignedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.14')?.values[0];
  return {
    signatureValue: new Uint8Array(signer.signature.valueBlock.valueHexView),
    timestampToken: token ? new Uint8Array(token.toBER()) : undefined,
    signedAttributeTypes: signer.signedAttrs?.attributes.map((a) => a.type) ?? [],
    certificates: (signedData.certificates ?? []).map((c) => Buffer.from(c.toSchema().toBER())),
  };
}

/**
 * The SignerInfo's signatureAlgorithm: its OID, and for RSASSA-PSS the hash OID and salt length of its parameters
 * (read as pkijs decodes them, so their defaults apply: SHA-1 and 20 when absent).
 */
export function cmsSignatureAlgorithm(cms: Uint8Array): { oid: string; pss?: { hash: string; saltLength: number } } {
  const signedData = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(new Uint8Array(cms)).content });
  const algorithm = signedData.signerInfos[0]!.signatureAlgorithm;
  if (algorithm.algorithmId !== '1.2.840.113549.1.1.10') return { oid: algorithm.algorithmId };
  const params = new pkijs.RSASSAPSSParams({ schema: algorithm.algorithmParams });
  return { oid: algorithm.algorithmId, pss: { hash: params.hashAlgorithm.algorithmId, saltLength: params.saltLength } };
}

async function scratch(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'signing-validate-'));
}

/** `openssl cms -verify -binary -inform DER -content <signed bytes>` against `caFile`. */
export async function opensslCmsVerify(cms: Uint8Array, content: Uint8Array, caFile: string): Promise<RunResult> {
  const dir = await scratch();
  await writeFile(join(dir, 'sig.der'), cms);
  await writeFile(join(dir, 'content.bin'), content);
  return run('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', join(dir, 'sig.der'), '-content', join(dir, 'content.bin'), '-CAfile', caFile, '-purpose', 'any', '-out', '/dev/null']);
}

/** `openssl ts -verify -data <data> -in token -token_in -CAfile tsaRoot`. */
export async function opensslTsVerify(data: Uint8Array, token: Uint8Array, caFile: string): Promise<RunResult> {
  const dir = await scratch();
  await writeFile(join(dir, 'data.bin'), data);
  await writeFile(join(dir, 'token.der'), token);
  return run('openssl', ['ts', '-verify', '-data', join(dir, 'data.bin'), '-in', join(dir, 'token.der'), '-token_in', '-CAfile', caFile]);
}

const BC_JARS = ['/usr/share/java/bcprov.jar', '/usr/share/java/bcpkix.jar', '/usr/share/java/bcutil.jar'];

/** The JDK's Santuario canonicalizer is internal: the XAdES checker compiles and runs with it exported. */
const SANTUARIO_EXPORTS = ['com.sun.org.apache.xml.internal.security', 'com.sun.org.apache.xml.internal.security.c14n'].map((pkg) => `--add-exports=java.xml.crypto/${pkg}=ALL-UNNAMED`);

/** Compiles a checker from ./validators once per source version into the temp dir. */
async function compiledChecker(name = 'CadesStrictCheck'): Promise<string> {
  const source = new URL(`./validators/${name}.java`, import.meta.url);
  const code = await readFile(source);
  const dir = join(tmpdir(), `signing-${name}-${createHash('sha256').update(code).digest('hex').slice(0, 12)}`);
  const ok = await stat(join(dir, `${name}.class`)).then(() => true, () => false);
  if (!ok) {
    const build = await mkdtemp(`${dir}.build-`);
    await execFileAsync('javac', ['-nowarn', ...SANTUARIO_EXPORTS, '-cp', BC_JARS.join(':'), '-d', build, source.pathname]);
    await execFileAsync('mv', ['-T', build, dir]).catch(() => undefined);
  }
  return dir;
}

/** BouncyCastle strict CAdES check; `tsaRoot` undefined means the signature must verify without timestamp. */
export async function bouncyCastleCheck(cms: Uint8Array, content: Uint8Array, signerRoot: string, tsaRoot: string | undefined): Promise<RunResult> {
  const classes = await compiledChecker();
  const dir = await scratch();
  await writeFile(join(dir, 'sig.der'), cms);
  await writeFile(join(dir, 'content.bin'), content);
  return run('java', ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-cp', [classes, ...BC_JARS].join(':'), 'CadesStrictCheck', join(dir, 'sig.der'), join(dir, 'content.bin'), signerRoot, tsaRoot ?? '-no-timestamp']);
}

/** xmlsec1 over one signature file, from the unzipped container root (references are relative to it). */
export async function xmlsecVerify(containerRoot: string, signaturePath: string, rootPem: string): Promise<RunResult> {
  return run(
    'xmlsec1',
    ['--verify', '--trusted-pem', rootPem, '--id-attr:Id', 'http://uri.etsi.org/01903/v1.3.2#:SignedProperties', '--enabled-reference-uris', 'empty,same-doc,remote', signaturePath],
    { cwd: containerRoot },
  );
}

/**
 * XML-DSig core validation by the JDK's javax.xml.crypto (XmlDsigCheck.java): the one independent XML validator here
 * that knows RSASSA-PSS (xmldsig-more sha256-rsa-MGF1), which xmlsec1 1.2.37 lacks. Prints the SignatureMethod.
 */
export async function jdkXmlDsigVerify(containerRoot: string, signaturePath: string): Promise<RunResult> {
  const classes = await compiledChecker('XmlDsigCheck');
  return run('java', ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-cp', classes, 'XmlDsigCheck', containerRoot, signaturePath]);
}

/**
 * What a XAdES ArchiveTimeStamp covers, computed by the JDK's XML stack (XadesArchiveInput.java), and the token
 * itself: check the one against the other with opensslTsVerify.
 */
export async function xadesArchiveTimestampInput(containerRoot: string, signaturePath: string): Promise<{ input: Buffer; token: Buffer; result: RunResult }> {
  const classes = await compiledChecker('XadesArchiveInput');
  const dir = await scratch();
  const result = await run('java', ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', ...SANTUARIO_EXPORTS, '-cp', classes, 'XadesArchiveInput', join(containerRoot, signaturePath), containerRoot, join(dir, 'input.bin'), join(dir, 'token.der')]);
  if (result.code !== 0) return { input: Buffer.alloc(0), token: Buffer.alloc(0), result };
  return { input: await readFile(join(dir, 'input.bin')), token: await readFile(join(dir, 'token.der')), result };
}
