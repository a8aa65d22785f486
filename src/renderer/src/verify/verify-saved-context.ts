import { createContext } from 'react';
import type { DeskSavedFile } from '../../../core/schemas/desk-api.js';

/** A result to verify: the file the station saved, and for a timestamp token the file it is over. */
export interface VerifySavedRequest {
  saved: DeskSavedFile;
  data?: File;
}

/**
 * "Verify this file" on a result: takes the user to the Verify screen with that file checked, without picking it
 * again. Provided by the window around every screen; absent, the results offer no such button.
 */
export const VerifySavedContext = createContext<((request: VerifySavedRequest) => void) | undefined>(undefined);
