// Trusted lists (ETSI TS 119 612) for tests: a list of lists and national lists made from our own certificates,
// signed by xmlsec1 (an independent XML signature implementation) with keys openssl makes.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const SERVICE_TYPE = {
  caQc: 'http://uri.etsi.org/TrstSvc/Svctype/CA/QC',
  caPkc: 'http://uri.etsi.org/TrstSvc/Svctype/CA/PKC',
  tsaQtst: 'http://uri.etsi.org/TrstSvc/Svctype/TSA/QTST',
};
export const STATUS = {
  granted: 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted',
  withdrawn: 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/withdrawn',
};
export const QUALIFIER = {
  withSscd: 'http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/QCWithSSCD',
  noSscd: 'http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/QCNoSSCD',
  qcStatement: 'http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/QCStatement',
  forESig: 'http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/QCForESig',
};
const EU_TYPE = 'http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric';
export const LOTL_TYPE = 'http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists';

export interface ServiceSpec {
  provider: string;
  name: string;
  certificates: Uint8Array[];
  /** Newest first: the first is the current information, the rest its history. */
  periods: Array<{ type: string; status: string; since: Date; qualifiers?: string[] }>;
}

export interface ListSpec {
  territory: string;
  sequence: number;
  issued?: Date;
  nextUpdate?: Date;
  /** SchemeInformationURI entries: for a list of lists, its pivots and announcements, newest first. */
  schemeUris?: string[];
}

export interface PointerSpec {
  territory: string;
  location: string;
  certificates: Uint8Array[];
  /** The pointer's TSLType: a national list (the default), or `LOTL_TYPE` for the list of lists' pointer to itself. */
  type?: string;
}

const b64 = (der: Uint8Array): string => Buffer.from(der).toString('base64');
const iso = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

function schemeInformation(spec: ListSpec, type: string, pointers: string): string {
  const issued = spec.issued ?? new Date(Date.now() - 86_400_000);
  const next = spec.nextUpdate ?? new Date(issued.getTime() + 180 * 86_400_000);
  return `<tsl:SchemeInformation><tsl:TSLVersionIdentifier>5</tsl:TSLVersionIdentifier><tsl:TSLSequenceNumber>${spec.sequence}</tsl:TSLSequenceNumber><tsl:TSLType>${type}</tsl:TSLType><tsl:SchemeOperatorName><tsl:Name xml:lang="en">Test operator ${spec.territory}</tsl:Name></tsl:SchemeOperatorName>${spec.schemeUris ? `<tsl:SchemeInformationURI>${spec.schemeUris.map((uri) => `<tsl:URI xml:lang="en">${uri.replace(/&/g, '&amp;')}</tsl:URI>`).join('')}</tsl:SchemeInformationURI>` : ''}<tsl:SchemeTerritory>${spec.territory}</tsl:SchemeTerritory>${pointers}<tsl:ListIssueDateTime>${iso(issued)}</tsl:ListIssueDateTime><tsl:NextUpdate><tsl:dateTime>${iso(next)}</tsl:dateTime></tsl:NextUpdate></tsl:SchemeInformation>`;
}

function information(tag: string, spec: ServiceSpec, period: ServiceSpec['periods'][number], withIdentity: boolean): string {
  const identity = withIdentity ? `<tsl:ServiceDigitalIdentity>${spec.certificates.map((c) => `<tsl:DigitalId><tsl:X509Certificate>${b64(c)}</tsl:X509Certificate></tsl:DigitalId>`).join('')}</tsl:ServiceDigitalIdentity>` : '';
  const qualifiers = period.qualifiers?.length
    ? `<tsl:ServiceInformationExtensions><tsl:Extension Critical="true"><ecc:Qualifications xmlns:ecc="http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/#"><ecc:QualificationElement><ecc:Qualifiers>${period.qualifiers.map((q) => `<ecc:Qualifier uri="${q}"/>`).join('')}</ecc:Qualifiers><ecc:CriteriaList assert="atLeastOne"><ecc:KeyUsage><ecc:KeyUsageBit name="nonRepudiation">true</ecc:KeyUsageBit></ecc:KeyUsage><ecc:KeyUsage><ecc:KeyUsageBit name="digitalSignature">true</ecc:KeyUsageBit></ecc:KeyUsage></ecc:CriteriaList></ecc:QualificationElement></ecc:Qualifications></tsl:Extension></tsl:ServiceInformationExtensions>`
    : '';
  const name = tag === 'ServiceInformation' ? `<tsl:ServiceName><tsl:Name xml:lang="en">${spec.name}</tsl:Name></tsl:ServiceName>` : `<tsl:ServiceName><tsl:Name xml:lang="en">${spec.name}</tsl:Name></tsl:ServiceName>`;
  return `<tsl:${tag}><tsl:ServiceTypeIdentifier>${period.type}</tsl:ServiceTypeIdentifier>${name}${identity || (tag === 'ServiceHistoryInstance' ? '<tsl:ServiceDigitalIdentity/>' : '')}<tsl:ServiceStatus>${period.status}</tsl:ServiceStatus><tsl:StatusStartingTime>${iso(period.since)}</tsl:StatusStartingTime>${qualifiers}</tsl:${tag}>`;
}

function serviceXml(spec: ServiceSpec): string {
  const [current, ...history] = spec.periods;
  const historyXml = history.length ? `<tsl:ServiceHistory>${history.map((period) => information('ServiceHistoryInstance', spec, period, false)).join('')}</tsl:ServiceHistory>` : '';
  return `<tsl:TSPService>${information('ServiceInformation', spec, current!, true)}${historyXml}</tsl:TSPService>`;
}

const ENVELOPE = (body: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<tsl:TrustServiceStatusList xmlns:tsl="http://uri.etsi.org/02231/v2#" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="TrustServiceStatusList" TSLTag="http://uri.etsi.org/19612/TSLTag">${body}<ds:Signature Id="list-signature"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/><ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"/><ds:Reference URI=""><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/></ds:Transforms><ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue/></ds:Reference></ds:SignedInfo><ds:SignatureValue/><ds:KeyInfo><ds:X509Data><ds:X509Certificate/></ds:X509Data></ds:KeyInfo></ds:Signature></tsl:TrustServiceStatusList>\n`;

/** A national list's XML with an empty signature template for xmlsec1. */
export function nationalListXml(spec: ListSpec, services: ServiceSpec[]): string {
  const providers = services.map((service) => `<tsl:TrustServiceProvider><tsl:TSPInformation><tsl:TSPName><tsl:Name xml:lang="en">${service.provider}</tsl:Name></tsl:TSPName></tsl:TSPInformation><tsl:TSPServices>${serviceXml(service)}</tsl:TSPServices></tsl:TrustServiceProvider>`).join('');
  return ENVELOPE(`${schemeInformation(spec, EU_TYPE, '')}<tsl:TrustServiceProviderList>${providers}</tsl:TrustServiceProviderList>`);
}

/** A list of lists' XML pointing to national lists, with an empty signature template for xmlsec1. */
export function lotlXml(spec: ListSpec, pointers: PointerSpec[]): string {
  const pointerXml = pointers
    .map(
      (p) =>
        `<tsl:OtherTSLPointer><tsl:ServiceDigitalIdentities><tsl:ServiceDigitalIdentity>${p.certificates.map((c) => `<tsl:DigitalId><tsl:X509Certificate>${b64(c)}</tsl:X509Certificate></tsl:DigitalId>`).join('')}</tsl:ServiceDigitalIdentity></tsl:ServiceDigitalIdentities><tsl:TSLLocation>${p.location}</tsl:TSLLocation><tsl:AdditionalInformation><tsl:OtherInformation><tsl:TSLType>${p.type ?? EU_TYPE}</tsl:TSLType></tsl:OtherInformation><tsl:OtherInformation><tsl:SchemeTerritory>${p.territory}</tsl:SchemeTerritory></tsl:OtherInformation><tsl:OtherInformation><additionaltypes:MimeType xmlns:additionaltypes="http://uri.etsi.org/02231/v2/additionaltypes#">application/vnd.etsi.tsl+xml</additionaltypes:MimeType></tsl:OtherInformation></tsl:AdditionalInformation></tsl:OtherTSLPointer>`,
    )
    .join('');
  return ENVELOPE(schemeInformation(spec, LOTL_TYPE, `<tsl:PointersToOtherTSL>${pointerXml}</tsl:PointersToOtherTSL>`));
}

/** An EC P-256 key and self-signed certificate from openssl, to sign lists with. */
export interface ListSigner {
  keyPem: string;
  certPem: string;
  der: Uint8Array;
}

export async function createListSigner(name: string): Promise<ListSigner> {
  const dir = await mkdtemp(join(tmpdir(), 'list-signer-'));
  try {
    await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', `/CN=${name}/O=Signing Station Tests`, '-days', '3650']);
    const [keyPem, certPem] = await Promise.all([readFile(join(dir, 'key.pem'), 'utf8'), readFile(join(dir, 'cert.pem'), 'utf8')]);
    const der = new Uint8Array(Buffer.from(certPem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64'));
    return { keyPem, certPem, der };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Signs a list's template with xmlsec1 (`extra`: more xmlsec1 options, such as an --id-attr for a partial reference). */
export async function signWithXmlsec(xml: string, signer: ListSigner, extra: string[] = []): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'xmlsec-sign-'));
  try {
    await Promise.all([writeFile(join(dir, 'in.xml'), xml), writeFile(join(dir, 'key.pem'), signer.keyPem), writeFile(join(dir, 'cert.pem'), signer.certPem)]);
    await run('xmlsec1', ['--sign', ...extra, '--privkey-pem', `${join(dir, 'key.pem')},${join(dir, 'cert.pem')}`, '--output', join(dir, 'out.xml'), join(dir, 'in.xml')]);
    return await readFile(join(dir, 'out.xml'), 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Whether xmlsec1 finds the list's signature valid with this certificate's key. */
export async function xmlsecVerifies(xml: string, certPem: string): Promise<boolean> {
  const dir = await mkdtemp(join(tmpdir(), 'xmlsec-verify-'));
  try {
    await Promise.all([writeFile(join(dir, 'in.xml'), xml), writeFile(join(dir, 'cert.pem'), certPem)]);
    return await run('xmlsec1', ['--verify', '--pubkey-cert-pem', join(dir, 'cert.pem'), join(dir, 'in.xml')]).then(
      () => true,
      () => false,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
