// Runs the openssl command line, the independent RFC 3161 validator the TSA tests check against.
import { execFile } from 'node:child_process';

export interface OpensslResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function openssl(args: string[], options: { cwd?: string } = {}): Promise<OpensslResult> {
  return new Promise((resolve, reject) => {
    execFile('openssl', args, { cwd: options.cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
    });
  });
}

/** `openssl ts -reply -in r.tsr -text`, for the status, failure info and TSTInfo fields as openssl reads them. */
export async function describeReply(responsePath: string): Promise<string> {
  const result = await openssl(['ts', '-reply', '-in', responsePath, '-text']);
  if (result.code !== 0) throw new Error(`openssl ts -reply -text failed: ${result.stderr}`);
  return result.stdout;
}
