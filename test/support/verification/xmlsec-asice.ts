import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import yazl from 'yazl';

const exec = promisify(execFile);
const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END ${label}-----\n`;

// A ds:Signature over a container's data file whose SignedInfo is canonicalised with Canonical XML 1.1, as
// Estonian and Latvian signers write it; xmlsec1 fills in the digest, the value and the certificate (it reads
// note.txt from its working directory).
const TEMPLATE = `<?xml version="1.0" encoding="UTF-8"?>
<asic:XAdESSignatures xmlns:asic="http://uri.etsi.org/02918/v1.2.1#"><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="S0">
<ds:SignedInfo><ds:CanonicalizationMethod Algorithm="http://www.w3.org/2006/12/xml-c14n11"/><ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>
<ds:Reference URI="note.txt"><ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue/></ds:Reference>
</ds:SignedInfo><ds:SignatureValue/><ds:KeyInfo><ds:X509Data><ds:X509Certificate/></ds:X509Data></ds:KeyInfo></ds:Signature></asic:XAdESSignatures>
`;

const MANIFEST =
  '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.etsi.asic-e+zip"/><manifest:file-entry manifest:full-path="note.txt" manifest:media-type="text/plain"/></manifest:manifest>';

export interface XmlsecAsiceOptions {
  dir: string;
  signer: { pem: string; pkcs8: Uint8Array };
  name: string;
  /** What the signature is made over, and what the container then holds as note.txt. */
  signedNote: string;
  note: string;
  /** How the mimetype entry is written: first and stored (as ASiC wants), first but compressed, last, or none. */
  mimetype?: 'stored-first' | 'compressed' | 'last' | 'none';
  mediaType?: string;
  /** The name the container holds the data file under; the signature names note.txt. */
  dataName?: string;
}

/** An ASiC-E whose one signature another tool (xmlsec1) made and checked, written as `options` say. */
export async function xmlsecAsice(options: XmlsecAsiceOptions): Promise<string> {
  const { dir, name } = options;
  await writeFile(join(dir, 'key.pem'), pem('PRIVATE KEY', options.signer.pkcs8));
  await writeFile(join(dir, 'cert.pem'), options.signer.pem);
  await writeFile(join(dir, 'template.xml'), TEMPLATE);
  await writeFile(join(dir, 'note.txt'), options.signedNote);
  await exec('xmlsec1', ['--sign', '--privkey-pem', 'key.pem,cert.pem', '--output', `${name}.xml`, 'template.xml'], { cwd: dir });
  await exec('xmlsec1', ['--verify', '--insecure', `${name}.xml`], { cwd: dir }); // the value and digest; the chain is ours to judge
  const zip = new yazl.ZipFile();
  const mimetype = (): void => zip.addBuffer(Buffer.from(options.mediaType ?? 'application/vnd.etsi.asic-e+zip'), 'mimetype', { compress: options.mimetype === 'compressed' });
  if (options.mimetype !== 'last' && options.mimetype !== 'none') mimetype();
  zip.addBuffer(Buffer.from(options.note), options.dataName ?? 'note.txt');
  zip.addBuffer(Buffer.from(MANIFEST), 'META-INF/manifest.xml');
  zip.addBuffer(await readFile(join(dir, `${name}.xml`)), 'META-INF/signatures0.xml');
  if (options.mimetype === 'last') mimetype();
  zip.end();
  const path = join(dir, `${name}.asice`);
  await pipeline(zip.outputStream, createWriteStream(path));
  return path;
}
