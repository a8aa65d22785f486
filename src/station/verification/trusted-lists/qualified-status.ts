import type { Qualification } from '../../../core/schemas/verification-report.js';
import { x509 } from '../../pki/x509.js';
import type { TrustAnchor } from '../../ports/trust-source.js';
import { qcStatements } from './qc-statements.js';
import type { QualificationCriteria } from './trusted-list.js';

const CA_QC = 'http://uri.etsi.org/TrstSvc/Svctype/CA/QC';
const EXT = 'http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/';
const KEY_USAGE_BITS: Record<string, number> = {
  digitalSignature: x509.KeyUsageFlags.digitalSignature,
  nonRepudiation: x509.KeyUsageFlags.nonRepudiation,
  keyEncipherment: x509.KeyUsageFlags.keyEncipherment,
  dataEncipherment: x509.KeyUsageFlags.dataEncipherment,
  keyAgreement: x509.KeyUsageFlags.keyAgreement,
  keyCertSign: x509.KeyUsageFlags.keyCertSign,
  crlSign: x509.KeyUsageFlags.cRLSign,
  encipherOnly: x509.KeyUsageFlags.encipherOnly,
  decipherOnly: x509.KeyUsageFlags.decipherOnly,
};

/**
 * The qualified status of a signature (after ETSI TS 119 615's rules, simplified to one time: the one its chain was
 * judged at): the certificate is qualified when the trusted list names its issuer's service as CA/QC then, and the
 * certificate says QcCompliance or the list's qualifiers say QCStatement (NotQualified overrides); its key is in a
 * qualified device by QCWithSSCD/QCWithQSCD or QCNoSSCD/QCNoQSCD, else by its own QcSSCD; its use by QCForESig /
 * QCForESeal / QCForWSA, else its QcType (an e-signature when it names none).
 */
export function qualifiedStatus(signer: x509.X509Certificate, anchor: TrustAnchor | undefined): Qualification {
  const statements = qcStatements(signer);
  const qcNames = [...(statements.compliance ? ['QcCompliance'] : []), ...(statements.sscd ? ['QcSSCD'] : []), ...statements.types.map((t) => `QcType ${t}`)];
  const listed = anchor?.trustedList;
  const base = { qcStatements: qcNames, qualifiers: [] as string[], trustedList: listed ? anchor.source : null };
  if (!listed) return { ...base, level: 'AdES', qualifiedCertificate: false, qscd: null, type: null, reason: 'no trusted list names its issuer, so it cannot be qualified' };
  if (listed.typeUri !== CA_QC) return { ...base, level: 'AdES', qualifiedCertificate: false, qscd: null, type: null, reason: 'its issuer is listed, but not as a qualified CA (CA/QC)' };
  const qualifiers = [...new Set(listed.qualifications.filter((q) => matches(q.criteria, signer)).flatMap((q) => q.qualifiers))].filter((uri) => uri.startsWith(EXT)).map((uri) => uri.slice(EXT.length));
  const has = (...names: string[]): boolean => names.some((name) => qualifiers.includes(name));
  const qualified = (statements.compliance || has('QCStatement')) && !has('NotQualified');
  const listedQscd = has('QCWithSSCD', 'QCWithQSCD') ? true : has('QCNoSSCD', 'QCNoQSCD') ? false : undefined;
  const qscd = listedQscd ?? statements.sscd;
  const type = has('QCForESig') ? 'esig' : has('QCForESeal') ? 'eseal' : has('QCForWSA') ? 'web' : (statements.types[0] ?? 'esig');
  const result = { ...base, qualifiers, qualifiedCertificate: qualified, qscd, type: qualified ? type : null };
  if (!qualified) return { ...result, level: 'AdES', reason: has('NotQualified') ? 'the trusted list says its certificate is not qualified' : 'its certificate does not say it is qualified (no QcCompliance) and the trusted list does not either' };
  if (qscd && type === 'esig') return { ...result, level: 'QES', reason: 'a qualified certificate for electronic signatures, its key in a qualified signature creation device' };
  if (qscd && type === 'eseal') return { ...result, level: 'QESeal', reason: 'a qualified certificate for electronic seals, its key in a qualified seal creation device' };
  return { ...result, level: 'AdES-QC', reason: qscd ? 'a qualified certificate, but not one for signatures or seals' : 'a qualified certificate, its key not (said to be) in a qualified signature creation device' };
}

/** Whether a CriteriaList selects the certificate: policies (every one of a set) and key usage bits, by its assert. */
function matches(criteria: QualificationCriteria, certificate: x509.X509Certificate): boolean {
  const policies = new Set(certificate.getExtension(x509.CertificatePolicyExtension)?.policies ?? []);
  const usage = certificate.getExtension(x509.KeyUsagesExtension)?.usages ?? 0;
  const results = [
    ...criteria.policySets.map((set) => set.every((oid) => policies.has(oid))),
    ...criteria.keyUsages.map((bits) => bits.every(({ bit, value }) => KEY_USAGE_BITS[bit] !== undefined && ((usage & KEY_USAGE_BITS[bit]) !== 0) === value)),
    ...criteria.nested.map((nested) => matches(nested, certificate)),
  ];
  if (criteria.assert === 'all') return results.every(Boolean);
  if (criteria.assert === 'atLeastOne') return results.some(Boolean);
  return !results.some(Boolean);
}
