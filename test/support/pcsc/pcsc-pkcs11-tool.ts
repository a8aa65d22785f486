// Runs OpenSC's pkcs11-tool against opensc-pkcs11.so in a child process. It must not run in the test process:
// PKCS#11 calls block the thread that calls them, and the emulated card answers pcscd from this process's
// event loop, so an in-process OpenSC would wait for a card that can never answer.
import { spawn } from 'node:child_process';

export const OPENSC_MODULE = '/usr/lib/x86_64-linux-gnu/opensc-pkcs11.so';

export async function pkcs11Tool(...args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn('pkcs11-tool', ['--module', OPENSC_MODULE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, output };
}
