import { StationError, type StationErrorOptions } from '../../core/errors/station-error.js';

/** Errors of the signature formats engine (PAdES, ASiC-E). */
export class SigningError extends StationError {}

/** The input is not a document this engine can sign (broken or encrypted PDF, not an ASiC-E container, ...). */
export class UnsupportedDocumentError extends SigningError {
  constructor(message: string, options: StationErrorOptions = {}) {
    super('ERR_SIGNING_UNSUPPORTED_DOCUMENT', message, { status: 422, ...options });
  }
}

/** The document changed on disk between prepare and finish: the prepared digest no longer describes it. */
export class DocumentChangedError extends SigningError {
  constructor() {
    super('ERR_SIGNING_DOCUMENT_CHANGED', 'The document changed after the signature was prepared. Prepare it again.', {
      status: 409,
      retriable: true,
    });
  }
}

/** The signature value does not verify with the signer certificate over the prepared data. */
export class SignatureValueInvalidError extends SigningError {
  constructor() {
    super('ERR_SIGNING_SIGNATURE_INVALID', 'The signature value does not match the signer certificate and the prepared data.', {
      status: 400,
    });
  }
}

/** The timestamp authority failed or answered with a token that does not cover the signature. */
export class TimestampFailedError extends SigningError {
  constructor(message: string, options: StationErrorOptions = {}) {
    super('ERR_SIGNING_TIMESTAMP_FAILED', message, { status: 502, retriable: true, ...options });
  }
}

/** The output path exists and overwriting was not asked for, or is the input itself. */
export class OutputExistsError extends SigningError {
  constructor(path: string) {
    super('ERR_SIGNING_OUTPUT_EXISTS', `Refusing to overwrite ${path}.`, { status: 409, details: { path } });
  }
}

/** The signer's key type or certificate cannot be used for the requested format. */
export class UnsupportedSignerError extends SigningError {
  constructor(message: string) {
    super('ERR_SIGNING_UNSUPPORTED_SIGNER', message, { status: 422 });
  }
}

/** The finished CMS does not fit into the space reserved in the PDF at prepare time. */
export class SignatureTooLargeError extends SigningError {
  constructor(needed: number, reserved: number) {
    super('ERR_SIGNING_SIGNATURE_TOO_LARGE', `The signature needs ${needed} bytes but ${reserved} were reserved.`, {
      status: 500,
      details: { needed, reserved },
    });
  }
}

/** The requested page or rectangle for a visible signature does not exist, is outside the page, or is too small. */
export class InvalidPlacementError extends SigningError {
  constructor(message: string) {
    super('ERR_SIGNING_INVALID_PLACEMENT', message, { status: 400 });
  }
}

/** The document is certified with DocMDP permission level 1: no change, a new signature included, keeps it valid. */
export class CertifiedDocumentError extends SigningError {
  constructor() {
    super(
      'ERR_SIGNING_CERTIFIED_NO_CHANGES',
      'This document is certified with no changes permitted (DocMDP P=1): another signature would invalidate its certification.',
      { status: 409 },
    );
  }
}
