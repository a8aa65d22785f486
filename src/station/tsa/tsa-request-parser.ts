import * as asn1js from 'asn1js';
import { DerTag, derElementAt } from './der.js';
import { HASH_ALGORITHMS, type HashAlgorithmInfo } from '../pki/hash-algorithms.js';
import { TsaRejection } from './tsa-rejection.js';

/** What the authority needs from a TimeStampReq, checked and in the DER form it is echoed in. */
export interface TimestampRequest {
  readonly hashAlgorithm: HashAlgorithmInfo;
  readonly hashedMessage: Uint8Array;
  /** Whether the imprint's AlgorithmIdentifier carried an explicit NULL: the token echoes it as sent. */
  readonly hashParametersNull: boolean;
  /** Contents octets of the nonce INTEGER (minimal two's complement), echoed unchanged. */
  readonly nonce: Uint8Array | undefined;
  readonly certReq: boolean;
}

const TAG_BOOLEAN = 0x01;
const TAG_NULL = 0x05;
/** RFC 3161 suggests a 64-bit nonce; anything far larger is not a nonce but an attempt to inflate tokens. */
const MAX_NONCE_OCTETS = 64;
const oidContents = (oid: string): Buffer => Buffer.from(new asn1js.ObjectIdentifier({ value: oid }).toBER()).subarray(2);
const HASHES = Object.values(HASH_ALGORITHMS).map((info) => ({ info, contents: oidContents(info.oid) }));
const SHA1 = oidContents('1.3.14.3.2.26');
const policyContents = new Map<string, Buffer>();

interface Element {
  tag: number;
  contentStart: number;
  end: number;
}

/**
 * Parses and checks an RFC 3161 TimeStampReq (section 2.4.1) as strict DER. Anything the station will not
 * grant becomes a TsaRejection with the failInfo RFC 3161 prescribes; nothing in the input can make it throw
 * anything else.
 *
 * Written by hand on purpose: this runs for every request, and reading these six fields directly is a small fraction of
 * what the asn1js/@peculiar schema parser costs, which is a sizeable share of the RSA signature the whole request is
 * about (docs/performance.md#tsa-over-http). It only walks definite-length TLVs with bounds checks (derElementAt) and
 * is held to the @peculiar/asn1-tsp reading of the same bytes by differential fuzzing in the tests. Read top to bottom,
 * because the fields come in the order RFC 3161 fixes and each check reads the offset the previous one left.
 */
export function parseTimestampRequest(der: Uint8Array, acceptedPolicy: string): TimestampRequest {
  if (der.length === 0) throw bad('The request body is empty; send a DER TimeStampReq.');
  const outer = element(der, 0, der.length, DerTag.Sequence, 'TimeStampReq');
  if (outer.end !== der.length) throw bad(`The request has ${der.length - outer.end} bytes after the TimeStampReq.`);

  const version = element(der, outer.contentStart, outer.end, DerTag.Integer, 'version');
  const versionValue = integerContents(der, version, 'version');
  if (versionValue.length !== 1 || versionValue[0] !== 1) throw new TsaRejection('badRequest', 'Unsupported TimeStampReq version; only v1 exists.');

  const imprint = element(der, version.end, outer.end, DerTag.Sequence, 'messageImprint');
  const { hashAlgorithm, hashedMessage, hashParametersNull } = readMessageImprint(der, imprint);

  // The optional fields, each at most once and in the order of the definition.
  let at = imprint.end;
  let next = at < outer.end ? element(der, at, outer.end, undefined, 'TimeStampReq') : undefined;
  if (next?.tag === DerTag.Oid) {
    if (!Buffer.from(oidBytes(der, next, 'reqPolicy')).equals(acceptedPolicyContents(acceptedPolicy))) {
      throw new TsaRejection('unacceptedPolicy', `This TSA issues timestamps under policy ${acceptedPolicy} only.`);
    }
    next = (at = next.end) < outer.end ? element(der, at, outer.end, undefined, 'TimeStampReq') : undefined;
  }
  let nonce: Uint8Array | undefined;
  if (next?.tag === DerTag.Integer) {
    nonce = integerContents(der, next, 'nonce').slice();
    if (nonce.length > MAX_NONCE_OCTETS) throw bad(`The nonce is ${nonce.length} bytes; at most ${MAX_NONCE_OCTETS} are accepted.`);
    next = (at = next.end) < outer.end ? element(der, at, outer.end, undefined, 'TimeStampReq') : undefined;
  }
  let certReq = false;
  if (next?.tag === TAG_BOOLEAN) {
    if (next.end - next.contentStart !== 1 || (der[next.contentStart] !== 0x00 && der[next.contentStart] !== 0xff)) throw bad('certReq is not a DER BOOLEAN.');
    certReq = der[next.contentStart] === 0xff;
    next = (at = next.end) < outer.end ? element(der, at, outer.end, undefined, 'TimeStampReq') : undefined;
  }
  if (next?.tag === DerTag.Context0) {
    if (next.end === next.contentStart) throw bad('The request has an empty extensions field.');
    // RFC 3161 2.4.2: an extension the TSA does not recognise, critical or not, must fail the request.
    throw new TsaRejection('unacceptedExtension', 'Request extensions are not supported.');
  }
  if (next) throw bad(`The TimeStampReq has an unexpected field (tag 0x${next.tag.toString(16)}).`);
  return { hashAlgorithm, hashedMessage, hashParametersNull, nonce, certReq };
}

/** The messageImprint: an accepted hash algorithm (parameters absent or NULL) and a hash of its length. */
function readMessageImprint(der: Uint8Array, imprint: Element): Pick<TimestampRequest, 'hashAlgorithm' | 'hashedMessage' | 'hashParametersNull'> {
  const algorithm = element(der, imprint.contentStart, imprint.end, DerTag.Sequence, 'hashAlgorithm');
  const algorithmOid = element(der, algorithm.contentStart, algorithm.end, DerTag.Oid, 'hashAlgorithm.algorithm');
  const oid = oidBytes(der, algorithmOid, 'hashAlgorithm.algorithm');
  const hash = HASHES.find((candidate) => candidate.contents.equals(oid));
  if (!hash) {
    throw new TsaRejection(
      'badAlg',
      SHA1.equals(oid)
        ? 'SHA-1 message imprints are not accepted; use SHA-256, SHA-384 or SHA-512.'
        : `Unknown message imprint algorithm ${dotted(oid)}; use SHA-256, SHA-384 or SHA-512.`,
    );
  }
  let hashParametersNull = false;
  if (algorithmOid.end < algorithm.end) {
    const parameters = element(der, algorithmOid.end, algorithm.end, undefined, 'hashAlgorithm.parameters');
    if (parameters.tag !== TAG_NULL || parameters.end !== parameters.contentStart || parameters.end !== algorithm.end) {
      throw new TsaRejection('badAlg', `The ${hash.info.name} algorithm identifier carries parameters; it takes none (or NULL).`);
    }
    hashParametersNull = true;
  }
  const hashed = element(der, algorithm.end, imprint.end, DerTag.OctetString, 'hashedMessage');
  if (hashed.end !== imprint.end) throw bad('The messageImprint has extra fields.');
  const hashedMessage = der.slice(hashed.contentStart, hashed.end);
  if (hashedMessage.length !== hash.info.length) {
    throw bad(`A ${hash.info.name} imprint is ${hash.info.length} bytes, this one is ${hashedMessage.length}.`);
  }
  return { hashAlgorithm: hash.info, hashedMessage, hashParametersNull };
}

function bad(message: string): TsaRejection {
  return new TsaRejection('badDataFormat', message);
}

/** The element at `offset`, which must fit before `limit`, use the shortest length form, and carry `tag`. */
function element(der: Uint8Array, offset: number, limit: number, tag: number | undefined, field: string): Element {
  const found = offset < limit ? derElementAt(der, offset) : undefined;
  if (!found || found.end > limit) throw bad(`The request is not DER: ${field} is missing or runs past its container.`);
  const lengthOctets = found.contentStart - offset - 2;
  const length = found.end - found.contentStart;
  if ((found.tag & 0x1f) === 0x1f) throw bad(`The request is not DER: ${field} has a multi-byte tag.`);
  if ((lengthOctets === 1 && length < 0x80) || (lengthOctets > 1 && der[offset + 2] === 0)) throw bad(`The request is not DER: ${field} has a non-minimal length.`);
  if (tag !== undefined && found.tag !== tag) throw bad(`The request is not a TimeStampReq: ${field} has tag 0x${found.tag.toString(16)}.`);
  return found;
}

/** INTEGER contents, which DER requires non-empty and minimal. */
function integerContents(der: Uint8Array, integer: Element, field: string): Uint8Array {
  const contents = der.subarray(integer.contentStart, integer.end);
  if (contents.length === 0) throw bad(`The request is not DER: ${field} is an empty INTEGER.`);
  if (contents.length > 1 && ((contents[0] === 0x00 && contents[1]! < 0x80) || (contents[0] === 0xff && contents[1]! >= 0x80))) {
    throw bad(`The request is not DER: ${field} is not a minimal INTEGER.`);
  }
  return contents;
}

/** OBJECT IDENTIFIER contents: non-empty, every sub-identifier minimal and complete. */
function oidBytes(der: Uint8Array, oid: Element, field: string): Uint8Array {
  const contents = der.subarray(oid.contentStart, oid.end);
  const malformed = contents.length === 0 || (contents[contents.length - 1]! & 0x80) !== 0 || contents.some((byte, i) => byte === 0x80 && (i === 0 || (contents[i - 1]! & 0x80) === 0));
  if (malformed) throw bad(`The request is not DER: ${field} is not a valid OBJECT IDENTIFIER.`);
  return contents;
}

function acceptedPolicyContents(oid: string): Buffer {
  let contents = policyContents.get(oid);
  if (!contents) {
    contents = oidContents(oid);
    policyContents.set(oid, contents);
  }
  return contents;
}

/** Dotted form for messages; BigInt because 2.25 (UUID) arcs exceed 2^53. */
function dotted(contents: Uint8Array): string {
  const arcs: bigint[] = [];
  let value = 0n;
  for (const byte of contents) {
    value = (value << 7n) | BigInt(byte & 0x7f);
    if ((byte & 0x80) === 0) {
      arcs.push(value);
      value = 0n;
    }
  }
  const first = arcs.shift() ?? 0n;
  const head = first < 40n ? [0n, first] : first < 80n ? [1n, first - 40n] : [2n, first - 80n];
  return [...head, ...arcs].join('.');
}
