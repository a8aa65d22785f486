import * as asn1js from 'asn1js';
import { AsnConvert } from '@peculiar/asn1-schema';
import { TimeStampReq } from '@peculiar/asn1-tsp';
import { DerTag, derElementAt } from './der.js';
import { TSA_HASH_ALGORITHMS, type TsaHashAlgorithmInfo } from './tsa-hash-algorithms.js';
import { TsaRejection } from './tsa-rejection.js';

/** What the authority needs from a TimeStampReq, checked and normalised for re-encoding in DER. */
export interface TimestampRequest {
  readonly hashAlgorithm: TsaHashAlgorithmInfo;
  readonly hashedMessage: Uint8Array;
  /** Whether the imprint's AlgorithmIdentifier carried an explicit NULL: the token echoes it as sent. */
  readonly hashParametersNull: boolean;
  /** Contents octets of the nonce INTEGER, minimal, to be echoed unchanged. */
  readonly nonce: Uint8Array | undefined;
  readonly certReq: boolean;
}

const BY_OID = new Map(Object.values(TSA_HASH_ALGORITHMS).map((info) => [info.oid, info]));
const SHA1_OID = '1.3.14.3.2.26';
/** RFC 3161 suggests a 64-bit nonce; anything far larger is not a nonce but an attempt to inflate tokens. */
const MAX_NONCE_OCTETS = 64;

/**
 * Parses and checks an RFC 3161 TimeStampReq (section 2.4.1). Anything the station will not grant becomes a
 * TsaRejection with the failInfo RFC 3161 prescribes; nothing in the input can make it throw anything else.
 * The outer SEQUENCE must have a definite length covering the whole body: no trailing or missing bytes.
 */
export function parseTimestampRequest(der: Uint8Array, acceptedPolicy: string): TimestampRequest {
  const request = decode(der);
  if (request.version !== 1) throw new TsaRejection('badRequest', `Unsupported TimeStampReq version ${request.version}; only v1 exists.`);

  const { hashAlgorithm: algorithm, hashedMessage } = request.messageImprint;
  const hashAlgorithm = BY_OID.get(algorithm.algorithm);
  if (!hashAlgorithm) {
    throw new TsaRejection(
      'badAlg',
      algorithm.algorithm === SHA1_OID
        ? 'SHA-1 message imprints are not accepted; use SHA-256, SHA-384 or SHA-512.'
        : `Unknown message imprint algorithm ${algorithm.algorithm}; use SHA-256, SHA-384 or SHA-512.`,
    );
  }
  if (algorithm.parameters !== undefined && algorithm.parameters !== null && !isDerNull(algorithm.parameters)) {
    throw new TsaRejection('badAlg', `The ${hashAlgorithm.name} algorithm identifier carries parameters; it takes none (or NULL).`);
  }
  const hash = new Uint8Array(hashedMessage.buffer);
  if (hash.length !== hashAlgorithm.length) {
    throw new TsaRejection('badDataFormat', `A ${hashAlgorithm.name} imprint is ${hashAlgorithm.length} bytes, this one is ${hash.length}.`);
  }
  if (request.reqPolicy !== undefined && !requestedPolicy(der)?.equals(policyDer(acceptedPolicy))) {
    throw new TsaRejection('unacceptedPolicy', `This TSA issues timestamps under policy ${acceptedPolicy} only.`);
  }
  if (request.extensions !== undefined && request.extensions.length > 0) {
    // RFC 3161 2.4.2: an extension the TSA does not recognise, critical or not, must fail the request.
    throw new TsaRejection('unacceptedExtension', `Request extensions are not supported (${request.extensions.map((e) => e.extnID).join(', ')}).`);
  }
  return {
    hashAlgorithm,
    hashedMessage: hash,
    hashParametersNull: algorithm.parameters === null,
    nonce: request.nonce === undefined ? undefined : nonceOctets(request.nonce), certReq: request.certReq };
}

function decode(der: Uint8Array): TimeStampReq {
  if (der.length === 0) throw new TsaRejection('badDataFormat', 'The request body is empty; send a DER TimeStampReq.');
  const outer = derElementAt(der, 0);
  if (outer?.tag !== DerTag.Sequence) throw new TsaRejection('badDataFormat', 'The request body is not a DER SEQUENCE.');
  const declared = outer.end;
  if (declared < der.length) throw new TsaRejection('badDataFormat', `The request has ${der.length - declared} bytes after the TimeStampReq.`);
  if (declared > der.length) throw new TsaRejection('badDataFormat', 'The request body is truncated.');
  try {
    return AsnConvert.parse(der, TimeStampReq);
  } catch (cause) {
    throw new TsaRejection('badDataFormat', 'The request body is not a DER TimeStampReq.', { cause });
  }
}

/**
 * The reqPolicy OID as sent, compared in DER: asn1js renders arcs above 2^53 (a 2.25 UUID OID's) as hex, so
 * its dotted strings cannot be compared with the configured one.
 */
function requestedPolicy(der: Uint8Array): Buffer | undefined {
  const outer = derElementAt(der, 0);
  const version = outer && derElementAt(der, outer.contentStart);
  const imprint = version && derElementAt(der, version.end);
  const policy = imprint && derElementAt(der, imprint.end);
  return imprint && policy?.tag === DerTag.Oid ? Buffer.from(der.subarray(imprint.end, policy.end)) : undefined;
}

const policyEncodings = new Map<string, Buffer>();
function policyDer(oid: string): Buffer {
  let encoded = policyEncodings.get(oid);
  if (!encoded) {
    encoded = Buffer.from(new asn1js.ObjectIdentifier({ value: oid }).toBER());
    policyEncodings.set(oid, encoded);
  }
  return encoded;
}

function isDerNull(parameters: ArrayBuffer): boolean {
  const bytes = new Uint8Array(parameters);
  return bytes.length === 2 && bytes[0] === 0x05 && bytes[1] === 0x00;
}

/** The nonce's INTEGER contents in minimal two's complement form, so echoing it yields valid DER. */
function nonceOctets(raw: ArrayBuffer): Uint8Array {
  let bytes = new Uint8Array(raw);
  if (bytes.length === 0) throw new TsaRejection('badDataFormat', 'The nonce INTEGER is empty.');
  while (bytes.length > 1 && ((bytes[0] === 0x00 && (bytes[1]! & 0x80) === 0) || (bytes[0] === 0xff && (bytes[1]! & 0x80) !== 0))) {
    bytes = bytes.subarray(1);
  }
  if (bytes.length > MAX_NONCE_OCTETS) throw new TsaRejection('badDataFormat', `The nonce is ${bytes.length} bytes; at most ${MAX_NONCE_OCTETS} are accepted.`);
  return Uint8Array.from(bytes);
}
