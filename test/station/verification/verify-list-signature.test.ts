import { beforeAll, describe, expect, it } from 'vitest';
import { x509 } from '../../../src/station/pki/x509.js';
import { parseTrustedListDocument } from '../../../src/station/verification/trusted-lists/parse-trusted-list.js';
import { verifyListSignature } from '../../../src/station/verification/trusted-lists/verify-list-signature.js';
import { createListSigner, nationalListXml, signWithXmlsec, type ListSigner } from '../../support/verification/trusted-list-xml.js';

let signer: ListSigner;
let other: ListSigner;
let signed: string;
const certificate = (s: ListSigner): x509.X509Certificate => new x509.X509Certificate(s.certPem);

beforeAll(async () => {
  [signer, other] = await Promise.all([createListSigner('Signature check signer'), createListSigner('Signature check other')]);
  signed = await signWithXmlsec(nationalListXml({ territory: 'EE', sequence: 1 }, []), signer);
});

describe('a trusted list signature checked against several announced certificates', () => {
  it('names the announced certificate that signed, whichever place it has among them', async () => {
    const doc = parseTrustedListDocument(signed);
    const found = await verifyListSignature(doc, [certificate(other), certificate(signer)], 'The list');
    expect(found.subject).toBe(certificate(signer).subject);
  });

  it('leaves the list as it was: the same document verifies again (its signature put back)', async () => {
    const doc = parseTrustedListDocument(signed);
    await verifyListSignature(doc, [certificate(signer)], 'The list');
    await expect(verifyListSignature(doc, [certificate(other), certificate(signer)], 'The list')).resolves.toBeDefined();
  });

  it('refuses a changed list whichever certificates are announced', async () => {
    const doc = parseTrustedListDocument(signed.replace('<tsl:TSLSequenceNumber>1<', '<tsl:TSLSequenceNumber>2<'));
    await expect(verifyListSignature(doc, [certificate(other), certificate(signer)], 'The list')).rejects.toMatchObject({ code: 'ERR_TRUST_LIST_SIGNATURE_INVALID' });
  });
});
