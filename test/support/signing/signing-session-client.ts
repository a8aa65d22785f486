// The integrator server's side of a signing session in tests: prepare a document, download the signed version.
import { minimalPdf } from './signing-test-pdfs.js';

export interface Integration {
  baseUrl: string;
  clientId: string;
  secret: string;
}

/** prepare-files-for-signing with a one-page PDF, or an ASiC-E container of one text file; returns the doc_id. */
export async function prepareDocument(integration: Integration, containerType: 'pdf' | 'asice' = 'pdf'): Promise<string> {
  const file =
    containerType === 'pdf'
      ? { fileName: 'contract.pdf', mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') }
      : { fileName: 'terms.txt', mimeType: 'text/plain', fileContent: Buffer.from('terms').toString('base64') };
  const response = await fetch(`${integration.baseUrl}/api/signatures/prepare-files-for-signing`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: integration.clientId, secret: integration.secret, container_type: containerType, files: [file] }),
  });
  if (response.status !== 200) throw new Error(`prepare-files-for-signing answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { doc_id: string }).doc_id;
}

/** download-signed-file: the answer's members, and the signed file decoded (empty when there is none). */
export async function downloadSigned(integration: Integration, docId: string): Promise<{ file: Buffer; body: Record<string, unknown> }> {
  const response = await fetch(`${integration.baseUrl}/api/signatures/download-signed-file`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: integration.clientId, secret: integration.secret, doc_id: docId }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  return { file: Buffer.from(String(body.signed_file_contents ?? ''), 'base64'), body };
}

/**
 * What the station's iframe helper does for a browser client after start-signing, without a browser: it opens its
 * page for the client's document (which carries a ticket) and asks the station to sign the prepared digest there.
 */
export async function signThroughHelperPage(
  baseUrl: string,
  request: { clientId: string; method: string; docId: string; hexDigest: string; embeddingOrigin: string },
): Promise<{ status: number; body: { signatures?: string[]; code?: string } }> {
  const page = await (await fetch(`${baseUrl}/web-element/os-broker/${request.clientId}/${request.method}?doc_id=${encodeURIComponent(request.docId)}`)).text();
  const frame = JSON.parse(/<script[^>]*id="frame-data"[^>]*>([^<]*)<\/script>/.exec(page)![1]!) as { ticket: string };
  const response = await fetch(`${baseUrl}/web-element/api/signature`, {
    method: 'POST',
    headers: { origin: baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify({ ticket: frame.ticket, embeddingOrigin: request.embeddingOrigin, hexDigest: request.hexDigest }),
  });
  return { status: response.status, body: (await response.json()) as { signatures?: string[]; code?: string } };
}
