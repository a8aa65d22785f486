import { AsnConvert } from '@peculiar/asn1-schema';
import { TimeStampReq } from '@peculiar/asn1-tsp';
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
  if (request.reqPolicy !== undefined && request.reqPolicy !== acceptedPolicy) {
    throw new TsaRejection('unacceptedPolicy', `This TSA issues timestamps under policy ${acceptedPolicy} only, not ${request.reqPolicy}.`);
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
  const declared = outerLength(der);
  if (declared === undefined) throw new TsaRejection('badDataFormat', 'The request body is not a DER SEQUENCE.');
  if (declared < der.length) throw new TsaRejection('badDataFormat', `The request has ${der.length - declared} bytes after the TimeStampReq.`);
  if (declared > der.length) throw new TsaRejection('badDataFormat', 'The request body is truncated.');
  try {
    return AsnConvert.parse(der, TimeStampReq);
  } catch (cause) {
    throw new TsaRejection('badDataFormat', 'The request body is not a DER TimeStampReq.', { cause });
  }
}

/** Total size of the outer SEQUENCE as its header declares it; undefined for another tag or the BER indefinite form. */
function outerLength(der: Uint8Array): number | undefined {
  if (der[0] !== 0x30 || der.length < 2) return undefined;
  const first = der[1]!;
  if (first < 0x80) return 2 + first;
  const octets = first & 0x7f;
  if (octets === 0 || octets > 4 || der.length < 2 + octets) return undefined;
  let length = 0;
  for (let i = 0; i < octets; i++) length = length * 256 + der[2 + i]!;
  return 2 + octets + length;
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
