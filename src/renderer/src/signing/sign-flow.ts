import type { DeskPrepareRequest, DeskPrepareResponse, DeskSavedFile } from '../../../core/schemas/desk-api.js';
import type { SignatureBaseline } from '../../../core/schemas/signature-baseline.js';
import type { VisibleSignaturePlacement } from '../../../core/schemas/visible-signature-placement.js';
import type { TokenCertificate, TokenDescription } from '../../../core/schemas/token-description.js';
import { stationApi, stationCall } from '../station-api.js';
import { readAsBase64 } from './read-as-base64.js';
import { postWithProgress } from './post-with-progress.js';

export type SignStep = 'prepare' | 'consent' | 'finish' | 'save';

export interface SignOrder {
  files: File[];
  containerType: 'pdf' | 'asice';
  /** B-T adds the station's signature timestamp; B-B is the signature alone; B-LT and B-LTA add validation data. */
  baseline: SignatureBaseline;
  token: TokenDescription;
  certificateId: string;
  /** Signed into the document; the user typed it here, so it is also the exact text accepted for the session. */
  reason?: string;
  /** PDF: draw the signature on this page, in this box (points from the displayed page's bottom-left corner). */
  placement?: VisibleSignaturePlacement;
  /** A new container: the name it is saved under (without `.asice`). */
  containerName?: string;
}

/** The browser client's module that signs with each kind of key holder through the station's iframe helper. */
const CLIENT_MODULES: Readonly<Record<TokenDescription['kind'], string>> = {
  pcsc: 'idCardSignature',
  pkcs11: 'certEuropeUsbTokenSignature',
  store: 'certStoreAdvancedSignature',
};

/**
 * The one place the window signs, and the way a web page signs: its files become a signing session of the
 * station's own client, then the browser client (src/client, the code served at /client/ to web pages) runs the
 * iframe flow against the station: start-signing (the station's consent prompt), the iframe helper has the token
 * sign the digest the station prepared (PIN in the station's prompt), complete. Two steps are the window's own,
 * around that shared flow, because a web page has them on its server: prepare-files (the page's server holds the
 * client secret; the window holds the UI credential) and saving the result beside the user's documents on disk.
 */
export async function signDocuments(order: SignOrder, helperHolder: HTMLElement, onStep: (step: SignStep, fraction?: number) => void): Promise<DeskSavedFile> {
  const certificate = order.token.certificates.find((candidate) => candidate.id === order.certificateId);
  if (!certificate) throw new Error(`${order.token.label} has no certificate ${order.certificateId}`);
  const { clientId, docId } = await prepare(order, certificate, onStep);
  if (order.reason) {
    await stationCall('/api/signatures/signing-session/reason/accept', { method: 'POST', body: JSON.stringify({ client_id: clientId, doc_id: docId, reason_text: order.reason }) });
  }
  onStep('consent');
  await signThroughBrowserClient({ clientId, docId, module: CLIENT_MODULES[order.token.kind], certificate, helperHolder, onComplete: () => onStep('finish') });
  onStep('save');
  return stationApi.saveSigned(docId);
}

async function prepare(order: SignOrder, certificate: TokenCertificate, onStep: (step: SignStep, fraction?: number) => void): Promise<DeskPrepareResponse> {
  onStep('prepare', 0);
  const files = await Promise.all(order.files.map(async (file) => ({ fileName: file.name, mimeType: file.type || 'application/octet-stream', fileContent: await readAsBase64(file) })));
  const request: DeskPrepareRequest = {
    files,
    containerType: order.containerType,
    baseline: order.baseline,
    signingCertificate: certificate.certificate,
    ...(order.reason ? { signingReason: order.reason, requireSigningReason: true } : {}),
    ...(order.placement ? { visibleSignature: order.placement } : {}),
    ...(order.containerName ? { containerName: order.containerName } : {}),
  };
  return postWithProgress<DeskPrepareResponse>('/admin/api/desk/sessions', request, (fraction) => onStep('prepare', fraction));
}

interface ClientSigning {
  clientId: string;
  docId: string;
  module: string;
  certificate: TokenCertificate;
  helperHolder: HTMLElement;
  onComplete(): void;
}

/**
 * `createClient(...).signature.<module>.start(...)` with the certificate the user chose here (`signingCertificate`),
 * so the iframe helper asks nothing more than the station's consent and PIN. The client is loaded on first use, in
 * its own chunk: the window's first paint does not wait for it.
 */
async function signThroughBrowserClient({ clientId, docId, module, certificate, helperHolder, onComplete }: ClientSigning): Promise<void> {
  const { createClient } = await import('../../../client/create-client.js');
  const client = createClient({ clientId, docId, apiEndpoints: { base: () => location.origin } });
  const countryCode = client.getAllMethods().signature.find((method) => method.handlingModule === module)?.supportedCountries[0];
  await new Promise<void>((resolve, reject) => {
    client.signature[module]!.start({
      countryCode,
      iframeHolder: helperHolder,
      signingCertificate: certificate.certificate,
      modifyRequestSettings: (request) => {
        if (request.url.endsWith('/complete')) onComplete();
      },
      success: () => resolve(),
      fail: reject,
    });
  });
}
