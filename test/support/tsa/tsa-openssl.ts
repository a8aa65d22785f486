// The openssl command line, the independent RFC 3161 validator the TSA tests check against.
import { run, type RunResult } from '../signing/signing-validators.js';

export type OpensslResult = RunResult;

export function openssl(args: string[], options: { cwd?: string } = {}): Promise<OpensslResult> {
  return run('openssl', args, options);
}

/** `openssl ts -reply -in r.tsr -text`, for the status, failure info and TSTInfo fields as openssl reads them. */
export async function describeReply(responsePath: string): Promise<string> {
  const result = await openssl(['ts', '-reply', '-in', responsePath, '-text']);
  if (result.code !== 0) throw new Error(`openssl ts -reply -text failed: ${result.stderr}`);
  return result.stdout;
}
