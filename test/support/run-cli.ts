import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

export const cliPath = fileURLToPath(new URL('../../bin/signing-station.js', import.meta.url));

function assertBuilt(): void {
  if (!existsSync(fileURLToPath(new URL('../../out/cli/main.js', import.meta.url)))) {
    throw new Error('The CLI is not built: run `npm run build` (npm test does it first).');
  }
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `signing-station` command to completion. */
export function runCli(args: string[], options: { stdin?: string | Buffer; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

/** Starts `signing-station serve ...` and resolves with its first stdout line once it is printed. */
export async function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcessWithoutNullStreams; firstLine: string; lines: string[]; stderr: () => string }> {
  assertBuilt();
  const child = spawn(process.execPath, [cliPath, 'serve', ...args], { env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: string[] = [];
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (lines.length === 1) resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before printing: ${stderr}`)));
  });
  return { child, firstLine, lines, stderr: () => stderr };
}
