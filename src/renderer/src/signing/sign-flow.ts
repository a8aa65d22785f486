import type { DeskPrepareRequest, DeskPrepareResponse, DeskSavedFile } from '../../../core/schemas/desk-api.js';
import type { HashSigningMethod } from '../../../core/schemas/hash-signing-api.js';
import type { SignatureBaseline } from '../../../core/schemas/signature-baseline.js';
import type { VisibleSignaturePlacement } from '../../../core/schemas/visible-signature-placement.js';
import type { TokenDescription } from '../../../core/schemas/token-description.js';
import { stationApi, stationCall } from '../station-api.js';
import { readAsBase64 } from './read-as-base64.js';
import { postWithProgress } from './post-with-progress.js';

export type SignStep = 'prepare' | 'consent' | 'pin' | 'finish' | 'save';

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
}

/**
 * The one place the window signs. Its files become a signing session of the station's own client; then the
 * window acts as a web page of that client: start-signing (the station's consent prompt), the token signs the
 * digest the station prepared (PIN in the station's prompt), complete, and the result is saved.
 * When the browser client is bundled (src/client), the middle steps become its
 * `createClient(...).signature.<module>.start(...)`, with the same prepare before and save after.
 */
export async function signDocuments(order: SignOrder, onStep: (step: SignStep, fraction?: number) => void): Promise<DeskSavedFile> {
  onStep('prepare', 0);
  const files = await Promise.all(order.files.map(async (file) => ({ fileName: file.name, mimeType: file.type || 'application/octet-stream', fileContent: await readAsBase64(file) })));
  const request: DeskPrepareRequest = {
    files,
    containerType: order.containerType,
    baseline: order.baseline,
    ...(order.reason ? { signingReason: order.reason, requireSigningReason: true } : {}),
    ...(order.placement ? { visibleSignature: order.placement } : {}),
  };
  const { clientId, docId } = await postWithProgress<DeskPrepareResponse>('/admin/api/desk/sessions', request, (fraction) => onStep('prepare', fraction));
  const session = { client_id: clientId, doc_id: docId };
  if (order.reason) await stationCall('/api/signatures/signing-session/reason/accept', { method: 'POST', body: JSON.stringify({ ...session, reason_text: order.reason }) });
  const certificate = order.token.certificates.find((candidate) => candidate.id === order.certificateId);
  if (!certificate) throw new Error(`${order.token.label} has no certificate ${order.certificateId}`);
  const method = methodFor(order.token);
  onStep('consent');
  const started = await stationCall<{ token: string }>('/api/signatures/start-signing', {
    method: 'POST',
    body: JSON.stringify({ ...session, sign_type: method, certificate: certificate.certificate }),
  });
  onStep('pin');
  const { signatureValue } = await stationApi.deskSignature(docId, order.token.id, certificate.id);
  onStep('finish');
  await stationCall(`/api/signatures/${method}/complete`, { method: 'POST', body: JSON.stringify({ ...session, token: started.token, signature_value: signatureValue }) });
  onStep('save');
  return stationApi.saveSigned(docId);
}

/** The service interface's method code for the kind of key holder, as the log shows it. */
function methodFor(token: TokenDescription): HashSigningMethod {
  if (token.kind === 'pcsc') return 'id-signature';
  if (token.kind === 'store') return 'cert-store-advanced-signature';
  return 'certeurope-usb-token-signature';
}
