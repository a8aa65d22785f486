import { EventEmitter } from 'node:events';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

export const cliPath = fileURLToPath(new URL('../../../bin/signing-station.js', import.meta.url));

function assertBuilt(): void {
  if (!existsSync(fileURLToPath(new URL('../../../out/node/cli/main.js', import.meta.url)))) {
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

/**
 * Starts `signing-station serve ...` and resolves with its first stdout line once it is printed. `line(n)` waits
 * for the n-th stdout line (0-based) as it is printed, so no test has to guess how long the station takes.
 */
export async function startServe(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcessWithoutNullStreams; firstLine: string; lines: string[]; line(index: number): Promise<string>; stderr: () => string }> {
  assertBuilt();
  const child = spawn(process.execPath, [cliPath, 'serve', ...args], { env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: string[] = [];
  const printed = new EventEmitter();
  createInterface({ input: child.stdout }).on('line', (text) => {
    lines.push(text);
    printed.emit('line');
  });
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
    printed.emit('line');
  });
  const line = (index: number): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        if (lines[index] !== undefined) resolve(lines[index]);
        else if (exited !== undefined) reject(new Error(`serve exited with ${exited} before printing line ${index + 1}: ${stderr}`));
        else return false;
        printed.off('line', check);
        return true;
      };
      if (!check()) printed.on('line', check);
    });
  const firstLine = await line(0);
  return { child, firstLine, lines, line, stderr: () => stderr };
}
