import { AsnConvert } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { RsaSaPssParams, id_RSASSA_PSS, id_mgf1 } from '@peculiar/asn1-rsa';
import { HASH_ALGORITHMS, type HashAlgorithm } from './hash-algorithms.js';

/**
 * DER of the AlgorithmIdentifier id-RSASSA-PSS with its parameters stated in full (RFC 4055, RFC 4056 for CMS): the
 * hash, MGF1 over the same hash, a salt as long as the hash, as the station's signers sign PSS. The hash
 * identifiers carry no parameters, as RFC 5754 asks of SHA-2 in CMS.
 */
export function rsaPssAlgorithmIdentifier(hashAlgorithm: HashAlgorithm): Uint8Array {
  const { oid, length } = HASH_ALGORITHMS[hashAlgorithm];
  const hash = new AlgorithmIdentifier({ algorithm: oid });
  const parameters = new RsaSaPssParams({
    hashAlgorithm: hash,
    maskGenAlgorithm: new AlgorithmIdentifier({ algorithm: id_mgf1, parameters: AsnConvert.serialize(hash) }),
    saltLength: length,
  });
  return new Uint8Array(AsnConvert.serialize(new AlgorithmIdentifier({ algorithm: id_RSASSA_PSS, parameters: AsnConvert.serialize(parameters) })));
}
