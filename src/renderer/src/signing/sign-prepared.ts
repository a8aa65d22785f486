import type { DeskSavedFile } from '../../../core/schemas/desk-api.js';
import type { TokenCertificate, TokenDescription } from '../../../core/schemas/token-description.js';
import { stationApi, stationCall } from '../station-api.js';

export type SignStep = 'prepare' | 'consent' | 'finish' | 'save';

/** A document the station prepared as a signing session of its own client, and who signs it with what. */
export interface PreparedSigning {
  clientId: string;
  docId: string;
  token: TokenDescription;
  certificateId: string;
  /** Signed into the document; the user typed it here, so it is also the exact text accepted for the session. */
  reason?: string | undefined;
}

/** The browser client's module that signs with each kind of key holder through the station's iframe helper. */
const CLIENT_MODULES: Readonly<Record<TokenDescription['kind'], string>> = {
  pcsc: 'idCardSignature',
  pkcs11: 'certEuropeUsbTokenSignature',
  store: 'certStoreAdvancedSignature',
};

/**
 * Signs one prepared document the way a web page signs, then has the station save the result beside the user's
 * documents: the reason accepted, the browser client's iframe flow (the station's consent and PIN prompts), save.
 */
export async function signPrepared(signing: PreparedSigning, helperHolder: HTMLElement, onStep: (step: SignStep) => void): Promise<DeskSavedFile> {
  const { clientId, docId, token } = signing;
  const certificate = token.certificates.find((candidate) => candidate.id === signing.certificateId);
  if (!certificate) throw new Error(`${token.label} has no certificate ${signing.certificateId}`);
  if (signing.reason) {
    await stationCall('/api/signatures/signing-session/reason/accept', { method: 'POST', body: JSON.stringify({ client_id: clientId, doc_id: docId, reason_text: signing.reason }) });
  }
  onStep('consent');
  await signThroughBrowserClient({ clientId, docId, module: CLIENT_MODULES[token.kind], certificate, helperHolder, onComplete: () => onStep('finish') });
  onStep('save');
  return stationApi.saveSigned(docId);
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
