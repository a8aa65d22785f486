import { AsnConvert } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { RsaSaPssParams, id_RSASSA_PSS, id_mgf1 } from '@peculiar/asn1-rsa';
import type { SignatureScheme } from '../tokens/token.js';
import { digestAlgorithms } from './digest-algorithms.js';
import type { HashAlgorithm } from '../pki/hash-algorithms.js';

/**
 * DER of the AlgorithmIdentifier a CMS SignerInfo names its signature by, for CAdES and the TSA's tokens alike:
 * sha*WithRSAEncryption with NULL parameters (RFC 4055 asks for them), ecdsa-with-SHA* with none (RFC 5758), or
 * id-RSASSA-PSS with its parameters stated in full (RFC 4055, RFC 4056 for CMS): the hash, MGF1 over the same
 * hash, a salt as long as the hash, as the station's signers sign PSS. Hash identifiers inside carry no
 * parameters, as RFC 5754 asks of SHA-2 in CMS.
 */
export function cmsSignatureAlgorithm(scheme: SignatureScheme, hashAlgorithm: HashAlgorithm): Uint8Array {
  const digest = digestAlgorithms[hashAlgorithm];
  if (scheme === 'ECDSA') return serialize(new AlgorithmIdentifier({ algorithm: digest.ecdsaSignatureOid }));
  if (scheme === 'RSASSA-PKCS1-v1_5') return serialize(new AlgorithmIdentifier({ algorithm: digest.rsaSignatureOid, parameters: null }));
  const hash = new AlgorithmIdentifier({ algorithm: digest.oid });
  const parameters = new RsaSaPssParams({
    hashAlgorithm: hash,
    maskGenAlgorithm: new AlgorithmIdentifier({ algorithm: id_mgf1, parameters: AsnConvert.serialize(hash) }),
    saltLength: digest.length,
  });
  return serialize(new AlgorithmIdentifier({ algorithm: id_RSASSA_PSS, parameters: AsnConvert.serialize(parameters) }));
}

function serialize(identifier: AlgorithmIdentifier): Uint8Array {
  return new Uint8Array(AsnConvert.serialize(identifier));
}
