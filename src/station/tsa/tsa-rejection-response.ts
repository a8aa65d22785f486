import { DerTag, derNamedBits, derSmallInteger, derTlv } from './der.js';
import { PKI_FAILURE_BITS, type PkiFailure } from './tsa-rejection.js';

const PKI_STATUS_REJECTION = derSmallInteger(2);

/**
 * A TimeStampResp with PKIStatus rejection, the failure bit and a human-readable statusString. Apart from the
 * token encoder, which brings the ASN.1 libraries: a rejection needs none of them.
 */
export function rejectionResponse(failure: PkiFailure, message: string): Buffer {
  const statusString = derTlv(DerTag.Sequence, derTlv(DerTag.Utf8String, Buffer.from(message, 'utf8')));
  return derTlv(DerTag.Sequence, derTlv(DerTag.Sequence, PKI_STATUS_REJECTION, statusString, derNamedBits([PKI_FAILURE_BITS[failure]])));
}
