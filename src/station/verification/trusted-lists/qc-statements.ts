import * as asn1js from 'asn1js';
import type { x509 } from '../../pki/x509.js';

const QC_STATEMENTS = '1.3.6.1.5.5.7.1.3';
const ETSI = '0.4.0.1862.1.';
const QC_TYPES: Record<string, 'esig' | 'eseal' | 'web'> = { [`${ETSI}6.1`]: 'esig', [`${ETSI}6.2`]: 'eseal', [`${ETSI}6.3`]: 'web' };

/** The ETSI EN 319 412-5 QC statements of a certificate the qualified status depends on. */
export interface QcStatements {
  compliance: boolean;
  sscd: boolean;
  types: Array<'esig' | 'eseal' | 'web'>;
}

/**
 * Reads QcCompliance, QcSSCD and QcType from the qcStatements extension with asn1js (the maintained QC statement
 * schema package is on an older release line of the ASN.1 libraries than the station's). A malformed extension
 * says nothing.
 */
export function qcStatements(certificate: x509.X509Certificate): QcStatements {
  const none: QcStatements = { compliance: false, sscd: false, types: [] };
  const extension = certificate.extensions.find((e) => e.type === QC_STATEMENTS);
  if (!extension) return none;
  const parsed = asn1js.fromBER(extension.value);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) return none;
  const found: QcStatements = { compliance: false, sscd: false, types: [] };
  for (const statement of parsed.result.valueBlock.value) {
    if (!(statement instanceof asn1js.Sequence)) continue;
    const [id, info] = statement.valueBlock.value;
    if (!(id instanceof asn1js.ObjectIdentifier)) continue;
    const oid = id.valueBlock.toString();
    if (oid === `${ETSI}1`) found.compliance = true;
    if (oid === `${ETSI}4`) found.sscd = true;
    if (oid === `${ETSI}6` && info instanceof asn1js.Sequence) {
      for (const type of info.valueBlock.value) if (type instanceof asn1js.ObjectIdentifier && QC_TYPES[type.valueBlock.toString()]) found.types.push(QC_TYPES[type.valueBlock.toString()]!);
    }
  }
  return found;
}
