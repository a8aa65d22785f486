import { createHash } from 'node:crypto';
import type { Document } from '@xmldom/xmldom';
import type { PivotStep } from '../../../core/schemas/trust-api.js';
import type { x509 } from '../../pki/x509.js';
import { parseTrustedList, parseTrustedListDocument } from './parse-trusted-list.js';
import { PivotChainError } from './pivot-chain-error.js';
import { readableCertificates } from './readable-certificates.js';
import type { TrustedList } from './trusted-list.js';
import { verifyListSignature } from './verify-list-signature.js';

/** At most this many pivots are followed; the EU has published a handful since 2019. */
export const MAX_PIVOTS = 24;
/** The whole walk, every pivot read or fetched, ends within this time. */
const WALK_MS = 120_000;

/**
 * Certificates announced, once, as the ones that may sign a list of lists: by an Official Journal notice (`uri`
 * matches its address among the list's SchemeInformationURI), or given by the person (`uri` null). A notice may
 * give only SHA-256 fingerprints: the certificates then come from the list being checked, taken only when their
 * fingerprint is announced.
 */
export interface SignerAnnouncement {
  reference: string;
  uri: RegExp | null;
  certificates: x509.X509Certificate[];
  fingerprints: string[];
}

/** A pivot read on the way, for the caller to keep. */
export interface FollowedPivot {
  url: string;
  xml: string;
}

/**
 * Checks a list of lists' signature through its pivots (ETSI TS 119 612, as the EU's DSS does): the pivots are the
 * SchemeInformationURI entries naming earlier copies of the list, newest first, each published when the signing
 * certificates changed. Starting from the newest announcement the list names (or, when it names none, from every
 * announcement and every pivot), each pivot from the oldest on must be signed by a certificate the step before
 * announces, and then announces (in its pointer to the list of lists itself) the certificates for the next step;
 * the list itself must be signed by one the last pivot announces. Bounded in number of pivots and time; a refusal
 * says which step failed.
 */
export async function followPivots(lotl: { doc: Document; list: TrustedList }, announcements: readonly SignerAnnouncement[], read: (url: string) => Promise<string>, what: string): Promise<FollowedPivot[]> {
  const uris = lotl.list.schemeUris;
  const named = announcements.map((announcement) => ({ announcement, at: announcement.uri ? uris.findIndex((uri) => announcement.uri!.test(uri)) : -1 })).filter(({ at }) => at >= 0);
  const start = named.length > 0 ? Math.min(...named.map(({ at }) => at)) : uris.length;
  const first = named.length > 0 ? [...named.filter(({ at }) => at === start).map(({ announcement }) => announcement), ...announcements.filter((a) => a.uri === null)] : announcements;
  const pivots = uris.slice(0, start).filter(isPivot).reverse();
  const count = pivots.length;
  const fail = (step: PivotStep['step'], position: number, url: string | null, why: string, cause?: unknown): PivotChainError => new PivotChainError({ step, position, count, url }, `${what} was refused: ${why}.`, cause);
  if (count > MAX_PIVOTS) throw fail('too-many', 0, null, `it names ${count} pivots, more than the ${MAX_PIVOTS} followed`);
  const deadline = Date.now() + WALK_MS;
  let announced = first.flatMap((a) => a.certificates);
  let fingerprints = new Set(first.flatMap((a) => a.fingerprints));
  const followed: FollowedPivot[] = [];
  for (const [index, url] of pivots.entries()) {
    const position = index + 1;
    const step = `pivot ${position} of ${count} (${url})`;
    if (Date.now() > deadline) throw fail('unavailable', position, url, `following its pivots took longer than ${WALK_MS / 1000} s, at ${step}`);
    let xml: string;
    try {
      xml = await read(url);
    } catch (cause) {
      throw fail('unavailable', position, url, `${step} cannot be had (${(cause as Error).message})`, cause);
    }
    let pivot: { doc: Document; list: TrustedList };
    try {
      const doc = parseTrustedListDocument(xml);
      pivot = { doc, list: parseTrustedList(doc) };
    } catch (cause) {
      throw fail('unreadable', position, url, `${step} cannot be read (${(cause as Error).message})`, cause);
    }
    if (pivot.list.territory !== lotl.list.territory) throw fail('unreadable', position, url, `${step} is a list of ${pivot.list.territory}, not of ${lotl.list.territory}`);
    const signers = [...announced, ...fingerprinted(pivot, fingerprints)];
    try {
      await verifyListSignature(pivot.doc, signers, step);
    } catch (cause) {
      throw fail('signature', position, url, `${step} is not signed by a certificate ${position === 1 ? 'the announcement it starts from' : `pivot ${position - 1}`} announces`, cause);
    }
    announced = selfAnnounced(pivot.list);
    fingerprints = new Set();
    if (announced.length === 0) throw fail('no-signers', position, url, `${step} announces no certificate for the list of lists`);
    followed.push({ url, xml });
  }
  try {
    await verifyListSignature(lotl.doc, [...announced, ...fingerprinted(lotl, fingerprints)], what);
  } catch (cause) {
    const through = count === 0 ? '' : ` The certificates it was checked with are those its last pivot (${pivots[count - 1]}) announces.`;
    throw new PivotChainError({ step: 'lotl-signature', position: count + 1, count, url: null }, `${(cause as Error).message}${through}`, cause);
  }
  return followed;
}

/** The certificates a list of lists announces for itself: those of its pointer to a list of lists. */
function selfAnnounced(list: TrustedList): x509.X509Certificate[] {
  return list.pointers.filter((pointer) => /listofthelists/i.test(pointer.type)).flatMap((pointer) => readableCertificates(pointer.certificates));
}

/** The certificates a list carries (its own pointer, its signature's KeyInfo) whose SHA-256 is announced. */
function fingerprinted(lotl: { doc: Document; list: TrustedList }, fingerprints: ReadonlySet<string>): x509.X509Certificate[] {
  if (fingerprints.size === 0) return [];
  const keyInfo = [...lotl.doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'X509Certificate')].map((element) => new Uint8Array(Buffer.from((element.textContent ?? '').replace(/\s+/g, ''), 'base64')));
  const carried = [...lotl.list.pointers.filter((pointer) => /listofthelists/i.test(pointer.type)).flatMap((pointer) => pointer.certificates), ...keyInfo];
  return readableCertificates(carried.filter((der) => fingerprints.has(createHash('sha256').update(der).digest('hex'))));
}

/** The SchemeInformationURI entries that name pivots: earlier copies of the list of lists, by address. */
function isPivot(uri: string): boolean {
  return /^https?:\/\//i.test(uri) && /pivot/i.test(uri) && /\.xml$/i.test(uri);
}
