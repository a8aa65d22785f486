import { createHash } from 'node:crypto';
import { UnsupportedDocumentError } from '../signing-errors.js';
import type { ValidationMaterial } from '../validation-material.js';
import type { PdfDocumentReader } from './pdf-document-reader.js';
import { PdfDict, PdfName, PdfRef, type PdfValue } from './pdf-object.js';
import { compressedStream } from './pdf-stream-object.js';
import { PdfUpdateObjects } from './pdf-update-writer.js';

async function listed(reader: PdfDocumentReader, value: PdfValue | undefined): Promise<PdfValue[]> {
  const array = await reader.direct(value);
  return Array.isArray(array) ? array : [];
}

/**
 * The incremental update that adds validation material to the document security store (ETSI EN 319 142-1 5.4.2):
 * every certificate, OCSP response and CRL as a stream in /DSS /Certs, /OCSPs, /CRLs, and a /VRI entry for the
 * signature keyed by the upper-case hex SHA-1 of its /Contents bytes. A DSS already there is kept and extended.
 */
export async function buildDssUpdate(reader: PdfDocumentReader, material: ValidationMaterial, signatureContents: Uint8Array): Promise<Buffer> {
  const rootRef = reader.trailer.get('Root') as PdfRef;
  const catalogValue = await reader.resolve(rootRef);
  if (!(catalogValue instanceof PdfDict)) throw new UnsupportedDocumentError('Malformed PDF: the catalog is not a dictionary.');
  const catalog = new PdfDict(catalogValue.entries);
  const existing = await reader.direct(catalog.get('DSS'));
  const dss = existing instanceof PdfDict ? new PdfDict(existing.entries) : new PdfDict([['Type', new PdfName('DSS')]]);
  const update = new PdfUpdateObjects(reader);
  const streams = (items: readonly Uint8Array[]): PdfRef[] => items.map((der) => update.add({ body: compressedStream(der) }));
  const refs = { Certs: streams(material.certificates), OCSPs: streams(material.ocsps), CRLs: streams(material.crls) };
  for (const [key, added] of Object.entries(refs)) if (added.length > 0) dss.set(key, [...(await listed(reader, dss.get(key))), ...added]);

  const vriValue = await reader.direct(dss.get('VRI'));
  const vri = vriValue instanceof PdfDict ? new PdfDict(vriValue.entries) : new PdfDict();
  const entry = new PdfDict([['Cert', refs.Certs]]);
  if (refs.OCSPs.length > 0) entry.set('OCSP', refs.OCSPs);
  if (refs.CRLs.length > 0) entry.set('CRL', refs.CRLs);
  vri.set(createHash('sha1').update(signatureContents).digest('hex').toUpperCase(), entry);
  dss.set('VRI', vri);

  const dssRef = existing !== undefined && catalog.get('DSS') instanceof PdfRef ? (catalog.get('DSS') as PdfRef) : update.allocate();
  update.set(dssRef, dss);
  catalog.set('DSS', dssRef);
  update.set(rootRef, catalog);
  return Buffer.from(update.serialise(), 'latin1');
}
