import { DOMImplementation, XMLSerializer, type Document, type Element } from '@xmldom/xmldom';
import type { ContainerFile, DocumentVerification, Qualification, SignatureVerification } from '../../core/schemas/verification-report.js';

const NS = 'http://uri.etsi.org/19102/v1.2.1#';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
/** The station's own attributes where the standard has no place: a container file's name and size. */
const STATION_NS = 'urn:signing-station:validation-report';
/** Qualified status as the URIs the EU's validator (DSS) gives in its ETSI reports' SignatureQuality. */
const QUALITY = { QES: 'QESig', QESeal: 'QESeal', 'AdES-QC': 'AdESig-QC', AdES: 'AdESig' } as const;
const MAIN_INDICATION = { 'TOTAL-PASSED': 'total-passed', INDETERMINATE: 'indeterminate', 'TOTAL-FAILED': 'total-failed' } as const;

/**
 * An ETSI TS 119 102-2 style validation report of one document: per signature or timestamp, its validation time
 * and best signature time, the signer, the validation process, and the status with main and sub-indication as the
 * standard's URIs. Built with a DOM so every value is escaped.
 */
export function validationReportXml(report: DocumentVerification): string {
  const doc = new DOMImplementation().createDocument(NS, 'vr:ValidationReport', null);
  const root = doc.documentElement!;
  const files = report.files ?? [];
  report.signatures.forEach((signature, index) => {
    const covered = files.flatMap((file, position) => (file.coveredBy.includes(index) ? [`D-${position + 1}`] : []));
    root.appendChild(signatureReport(doc, signature, `S-${index + 1}`, report.validatedAt, covered));
  });
  if (files.length > 0) {
    const objects = add(doc, root, 'SignatureValidationObjects');
    files.forEach((file, position) => objects.appendChild(signedDataObject(doc, file, `D-${position + 1}`)));
  }
  const validator = add(doc, root, 'SignatureValidator');
  add(doc, add(doc, validator, 'DigitalId'), 'OtherId', 'Signing Station');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(doc)}\n`;
}

/**
 * A container's data file as a signed-data validation object: its SHA-256, with its name and size in the station's
 * namespace; the signatures covering it point to its id from their SignersDocument.
 */
function signedDataObject(doc: Document, file: ContainerFile, id: string): Element {
  const object = doc.createElementNS(NS, 'vr:ValidationObject');
  object.setAttribute('id', id);
  object.setAttributeNS(STATION_NS, 'st:name', file.name);
  object.setAttributeNS(STATION_NS, 'st:size', String(file.size));
  add(doc, object, 'ObjectType', 'urn:etsi:019102:validationObject:signedData');
  const digest = add(doc, add(doc, object, 'ValidationObjectRepresentation'), 'DigestAlgAndValue');
  const method = doc.createElementNS(DS, 'ds:DigestMethod');
  method.setAttribute('Algorithm', 'http://www.w3.org/2001/04/xmlenc#sha256');
  digest.appendChild(method);
  digest.appendChild(doc.createElementNS(DS, 'ds:DigestValue')).appendChild(doc.createTextNode(Buffer.from(file.sha256, 'hex').toString('base64')));
  return object;
}

function signatureReport(doc: Document, signature: SignatureVerification, id: string, validatedAt: string, covered: readonly string[]): Element {
  const element = doc.createElementNS(NS, 'vr:SignatureValidationReport');
  const identifier = add(doc, element, 'SignatureIdentifier');
  identifier.setAttribute('id', id);
  add(doc, identifier, 'HashOnly', 'false');
  add(doc, identifier, 'DocHashOnly', 'false');
  const timeInfo = add(doc, element, 'ValidationTimeInfo');
  add(doc, timeInfo, 'ValidationTime', validatedAt);
  const best = add(doc, timeInfo, 'BestSignatureTime');
  add(doc, best, 'POETime', signature.verdict.judgedAt);
  add(doc, best, 'TypeOfProof', signature.verdict.judgedAtFrom === 'timestamp' ? 'urn:etsi:019102:poetype:provided' : 'urn:etsi:019102:poetype:validation');
  if (covered.length > 0) add(doc, add(doc, element, 'SignersDocument'), 'SignersDocumentRepresentation').setAttribute('VOReference', covered.join(' '));
  if (signature.claimedTime) add(doc, add(doc, add(doc, element, 'SignatureAttributes'), 'SigningTime'), 'Time', signature.claimedTime);
  if (signature.signer) add(doc, add(doc, element, 'SignerInformation'), 'Signer', signature.signer);
  if (signature.qualification) qualityReport(doc, add(doc, element, 'SignatureQuality'), signature.qualification);
  add(doc, add(doc, element, 'SignatureValidationProcess'), 'SignatureValidationProcessID', `urn:etsi:019102:validationprocess:${signature.timestamp ? 'LTVM' : 'Basic'}`);
  const status = add(doc, element, 'SignatureValidationStatus');
  add(doc, status, 'MainIndication', `urn:etsi:019102:mainindication:${MAIN_INDICATION[signature.verdict.indication]}`);
  if (signature.verdict.subIndication) add(doc, status, 'SubIndication', `urn:etsi:019102:subindication:${signature.verdict.subIndication}`);
  const data = add(doc, status, 'AssociatedValidationReportData');
  add(doc, add(doc, data, 'AdditionalValidationReportData'), 'ReportData', signature.verdict.reason);
  return element;
}

/**
 * The final qualified status, then (as the EU's validator reports them) the certificate's at its issuance and at
 * the best signature time, each with the time it was judged at.
 */
function qualityReport(doc: Document, quality: Element, qualification: Qualification): void {
  add(doc, quality, 'SignatureQualityInformation', `urn:cef:dss:signatureQualification:${QUALITY[qualification.level]}`);
  for (const [time, at] of [['CERTIFICATE_ISSUANCE_TIME', qualification.atIssuance], ['BEST_SIGNATURE_TIME', qualification.atSigning]] as const) {
    if (!at) continue;
    const element = add(doc, quality, 'CertificateQualification', `urn:cef:dss:signatureQualification:${QUALITY[at.level]}`);
    element.setAttribute('ValidationTime', time);
    element.setAttribute('Time', at.time);
  }
}

function add(doc: Document, parent: Element, name: string, text?: string): Element {
  const child = doc.createElementNS(NS, `vr:${name}`);
  if (text !== undefined) child.appendChild(doc.createTextNode(text));
  parent.appendChild(child);
  return child;
}
