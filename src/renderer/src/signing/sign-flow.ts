import type { DeskPrepareRequest, DeskPrepareResponse, DeskSavedFile } from '../../../core/schemas/desk-api.js';
import type { SignatureBaseline } from '../../../core/schemas/signature-baseline.js';
import type { VisibleSignaturePlacement } from '../../../core/schemas/visible-signature-placement.js';
import type { StampLanguage } from '../../../core/schemas/stamp-language.js';
import type { TokenCertificate, TokenDescription } from '../../../core/schemas/token-description.js';
import { postWithProgress } from './post-with-progress.js';
import { deskFilesOf } from './desk-files-of.js';
import { signPrepared, type SignStep } from './sign-prepared.js';

export type { SignStep } from './sign-prepared.js';

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
  /** PDF: the language of the visible signature's labels, placed or drawn for a reason alike. */
  stampLanguage?: StampLanguage;
  /** A new container: the name it is saved under (without `.asice`). */
  containerName?: string;
}

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
  return signPrepared({ clientId, docId, token: order.token, certificateId: order.certificateId, reason: order.reason }, helperHolder, onStep);
}

async function prepare(order: SignOrder, certificate: TokenCertificate, onStep: (step: SignStep, fraction?: number) => void): Promise<DeskPrepareResponse> {
  onStep('prepare', 0);
  const request: DeskPrepareRequest = {
    files: await deskFilesOf(order.files),
    containerType: order.containerType,
    baseline: order.baseline,
    signingCertificate: certificate.certificate,
    ...(order.reason ? { signingReason: order.reason, requireSigningReason: true } : {}),
    ...(order.placement ? { visibleSignature: order.placement } : {}),
    ...(order.stampLanguage ? { stampLanguage: order.stampLanguage } : {}),
    ...(order.containerName ? { containerName: order.containerName } : {}),
  };
  return postWithProgress<DeskPrepareResponse>('/admin/api/desk/sessions', request, (fraction) => onStep('prepare', fraction));
}
