import { StationError } from '../../core/errors/station-error.js';
import type { SigningSession, SigningSessions } from './signing-sessions.js';

/** The signed document of a session and its signer, as download-signed-file answers them. */
export async function signedFileAnswer(sessions: Pick<SigningSessions, 'readFile'>, session: SigningSession): Promise<Record<string, unknown>> {
  if (!session.signedFile || !session.signer) {
    throw new StationError('ERR_SESSION_NOT_SIGNED', 'This document has not been signed yet.', { status: 409 });
  }
  const bytes = await sessions.readFile(session, session.signedFile);
  return {
    status: 'OK',
    signed_file_contents: bytes.toString('base64'),
    filename: session.signedFile.fileName,
    mime_type: session.signedFile.mimeType,
    signer_idcode: session.signer.idcode,
    signer_firstname: session.signer.firstname,
    signer_lastname: session.signer.lastname,
    signer_country: session.signer.country,
    signing_method: session.signer.signingMethod,
    signer_certificate: session.signer.certificate,
  };
}
