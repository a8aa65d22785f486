import { SigningError } from '../signing-errors.js';

/**
 * A container entry, or the container as a whole, holds more than the station reads: by its declared size, its
 * compression ratio or its actual inflated bytes. Said as such (not "damaged" or "changed after signing").
 */
export class ContainerTooLargeError extends SigningError {
  constructor(message: string, details: { entry?: string; limit: number }) {
    super('ERR_CONTAINER_ENTRY_TOO_LARGE', message, { status: 422, details });
  }
}
