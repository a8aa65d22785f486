import { createHash } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { TSTInfo, id_ct_tstInfo } from '@peculiar/asn1-tsp';
import type { TimestampCheck } from '../../core/schemas/verification-report.js';
import { HASH_ALGORITHMS, type HashAlgorithm } from '../pki/hash-algorithms.js';
import type { x509 } from '../pki/x509.js';
import { checkCertificateChain } from './check-certificate-chain.js';
import { checkCmsSignature, type ContentDigest } from './check-cms-signature.js';

/** What a timestamp covers: its bytes (a signature value), or a function hashing them (a file, PDF byte ranges) so big data is streamed. */
export type TimestampedData = Uint8Array | ContentDigest;

/**
 * An RFC 3161 token: its TSA signature, its chain to a trust anchor at its own time, and, when `covered` is
 * given, that its message imprint is the hash of that data.
 */
export async function checkTimestampToken(token: Uint8Array, anchors: readonly x509.X509Certificate[], covered?: TimestampedData): Promise<TimestampCheck & { tstInfo?: TSTInfo }> {
  const cms = await checkCmsSignature(token);
  const problems = [...cms.problems];
  if (cms.eContentType !== id_ct_tstInfo || !cms.eContent) return { time: '', authority: '', valid: false, trusted: false, problems: [...problems, 'not a timestamp token'] };
  const tstInfo = AsnConvert.parse(cms.eContent, TSTInfo);
  const imprint = tstInfo.messageImprint;
  const algorithm = Object.values(HASH_ALGORITHMS).find((info) => info.oid === imprint.hashAlgorithm.algorithm);
  if (covered && (!algorithm || !Buffer.from(imprint.hashedMessage.buffer).equals(await digestOf(covered, algorithm.name)))) {
    problems.push('the timestamp is over other data (its message imprint does not match)');
  }
  const authority = cms.signerCertificate;
  const chain = authority ? await checkCertificateChain(authority, cms.certificates, anchors, tstInfo.genTime) : undefined;
  return {
    time: tstInfo.genTime.toISOString(),
    authority: authority?.subject ?? 'unknown (the token carries no TSA certificate)',
    valid: cms.intact && problems.length === 0,
    trusted: chain?.trusted ?? false,
    problems: [...problems, ...(chain?.problems.map((p) => `timestamp: ${p}`) ?? [])],
    tstInfo,
  };
}

async function digestOf(covered: TimestampedData, algorithm: HashAlgorithm): Promise<Buffer> {
  return Buffer.from(typeof covered === 'function' ? await covered(algorithm) : createHash(HASH_ALGORITHMS[algorithm].nodeName).update(covered).digest());
}
