import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import type { ListPointer, ListQualification, QualificationCriteria, ServicePeriod, TrustedList, TrustedService } from './trusted-list.js';
import { TrustListError } from './trust-list-error.js';

const TSL = 'http://uri.etsi.org/02231/v2#';

/**
 * Parses the XML of a trusted list, refusing a DOCTYPE (lists never have one) and XML that is not well-formed.
 * Without xmldom's locator: line and column on every node cost time and memory here and again in the copy the
 * signature check makes, and a refusal never names a position.
 */
export function parseTrustedListDocument(xml: string): Document {
  if (/<!DOCTYPE/i.test(xml)) throw invalid('it declares a DOCTYPE, which trusted lists never do');
  let doc: Document;
  try {
    doc = new DOMParser({ locator: false, onError: (level, message) => { if (level !== 'warning') throw new Error(message); } }).parseFromString(xml, 'application/xml');
  } catch (cause) {
    throw invalid(`it is not well-formed XML (${(cause as Error).message})`, cause);
  }
  const root = doc.documentElement;
  if (!root || root.localName !== 'TrustServiceStatusList' || root.namespaceURI !== TSL) throw invalid('its root is not an ETSI TS 119 612 TrustServiceStatusList');
  return doc;
}

/**
 * The parts of a trusted list verification needs (ETSI TS 119 612): scheme information, the pointers of a list of
 * lists, and every service's current information and history. Walks the XML by hand: no maintained TS 119 612
 * reader exists for Node, and xmldom gives the elements.
 */
export function parseTrustedList(doc: Document): TrustedList {
  const root = doc.documentElement!;
  const scheme = only(root, 'SchemeInformation');
  const sequenceNumber = Number(textOf(only(scheme, 'TSLSequenceNumber')));
  if (!Number.isSafeInteger(sequenceNumber) || sequenceNumber < 1) throw invalid('its TSLSequenceNumber is not a positive integer');
  const nextUpdate = first(only(scheme, 'NextUpdate'), 'dateTime');
  return {
    territory: textOf(only(scheme, 'SchemeTerritory')),
    type: textOf(only(scheme, 'TSLType')),
    sequenceNumber,
    issuedAt: dateOf(only(scheme, 'ListIssueDateTime')),
    nextUpdate: nextUpdate ? dateOf(nextUpdate) : null,
    pointers: kids(first(scheme, 'PointersToOtherTSL'), 'OtherTSLPointer').map(pointerOf),
    schemeUris: kids(first(scheme, 'SchemeInformationURI'), 'URI').map(textOf),
    services: kids(first(root, 'TrustServiceProviderList'), 'TrustServiceProvider').flatMap(providerServices),
  };
}

function pointerOf(pointer: Element): ListPointer {
  const info = kids(first(pointer, 'AdditionalInformation'), 'OtherInformation');
  const other = (name: string): string => info.map((entry) => entry.getElementsByTagNameNS('*', name)[0]).find((found) => found !== undefined)?.textContent?.trim() ?? '';
  return {
    territory: other('SchemeTerritory'),
    location: textOf(only(pointer, 'TSLLocation')),
    type: other('TSLType'),
    mimeType: other('MimeType'),
    certificates: kids(first(pointer, 'ServiceDigitalIdentities'), 'ServiceDigitalIdentity').flatMap(certificatesOf),
  };
}

function providerServices(provider: Element): TrustedService[] {
  const name = nameOf(first(only(provider, 'TSPInformation'), 'TSPName'));
  return kids(first(provider, 'TSPServices'), 'TSPService').map((service) => {
    const information = only(service, 'ServiceInformation');
    const history = kids(first(service, 'ServiceHistory'), 'ServiceHistoryInstance');
    return {
      provider: name,
      name: nameOf(first(information, 'ServiceName')),
      certificates: certificatesOf(only(information, 'ServiceDigitalIdentity')),
      periods: [information, ...history].map(periodOf).sort((a, b) => b.since.getTime() - a.since.getTime()),
    };
  });
}

function periodOf(information: Element): ServicePeriod {
  const extensions = kids(first(information, 'ServiceInformationExtensions'), 'Extension');
  const inExtensions = (name: string): Element[] => extensions.flatMap((extension) => [...extension.getElementsByTagNameNS('*', name)]);
  return {
    typeUri: textOf(only(information, 'ServiceTypeIdentifier')),
    statusUri: textOf(only(information, 'ServiceStatus')),
    since: dateOf(only(information, 'StatusStartingTime')),
    qualifications: inExtensions('QualificationElement').map(qualificationOf),
    additional: inExtensions('AdditionalServiceInformation').map((element) => textOf(only(element, 'URI'))),
  };
}

function qualificationOf(element: Element): ListQualification {
  return {
    qualifiers: kids(first(element, 'Qualifiers'), 'Qualifier').map((qualifier) => qualifier.getAttribute('uri') ?? ''),
    criteria: criteriaOf(only(element, 'CriteriaList')),
  };
}

function criteriaOf(list: Element): QualificationCriteria {
  const assert = list.getAttribute('assert') ?? 'all';
  if (assert !== 'all' && assert !== 'atLeastOne' && assert !== 'none') throw invalid(`a CriteriaList asserts "${assert}"`);
  return {
    assert,
    policySets: kids(list, 'PolicySet').map((set) => kids(set, 'PolicyIdentifier').map((policy) => textOf(only(policy, 'Identifier')).replace(/^urn:oid:/, ''))),
    keyUsages: kids(list, 'KeyUsage').map((usage) => kids(usage, 'KeyUsageBit').map((bit) => ({ bit: bit.getAttribute('name') ?? '', value: textOf(bit) === 'true' }))),
    nested: kids(list, 'CriteriaList').map(criteriaOf),
  };
}

function certificatesOf(identity: Element): Uint8Array[] {
  return kids(identity, 'DigitalId')
    .flatMap((id) => kids(id, 'X509Certificate'))
    .map((element) => new Uint8Array(Buffer.from(textOf(element).replace(/\s+/g, ''), 'base64')));
}

/** The English name when there is one, else the first. */
function nameOf(names: Element | undefined): string {
  const all = kids(names, 'Name');
  return textOf(all.find((name) => name.getAttribute('xml:lang') === 'en') ?? all[0]);
}

function kids(parent: Element | undefined, localName: string): Element[] {
  if (!parent) return [];
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) if (node.nodeType === 1 && (node as Element).localName === localName) found.push(node as Element);
  return found;
}

function first(parent: Element | undefined, localName: string): Element | undefined {
  return kids(parent, localName)[0];
}

function only(parent: Element, localName: string): Element {
  const found = first(parent, localName);
  if (!found) throw invalid(`its ${parent.localName} has no ${localName}`);
  return found;
}

function textOf(element: Element | undefined): string {
  return element?.textContent?.trim() ?? '';
}

function dateOf(element: Element): Date {
  const date = new Date(textOf(element));
  if (Number.isNaN(date.getTime())) throw invalid(`its ${element.localName} "${textOf(element)}" is not a date`);
  return date;
}

function invalid(why: string, cause?: unknown): TrustListError {
  return new TrustListError('ERR_TRUST_LIST_INVALID', `The trusted list cannot be read: ${why}.`, cause === undefined ? {} : { cause });
}
