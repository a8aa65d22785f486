/** What a verification tells the user; filled in by the station's verification service (issue 19). */
export interface VerificationReport {
  summary: string;
  detail: unknown;
}

/**
 * The one place the window verifies a file. The station's shared verification service plugs in here (an admin
 * endpoint over it); until then the Verify screen says it is not available.
 */
export async function verifyFile(_file: File): Promise<VerificationReport | undefined> {
  return undefined;
}
