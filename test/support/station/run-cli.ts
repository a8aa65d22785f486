import { EventEmitter } from 'node:events';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

export const cliPath = fileURLToPath(new URL('../../../bin/signing-station.js', import.meta.url));

function assertBuilt(): void {
  if (!existsSync(fileURLToPath(new URL('../../../out/cli/main.js', import.meta.url)))) {
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

export interface InteractiveCli {
  child: ChildProcessWithoutNullStreams;
  /** Everything printed so far (stdout and stderr together, as a terminal shows them). */
  output: () => string;
  /** Resolves once the output matches, with the output so far; rejects if the process ends first. */
  waitFor: (pattern: RegExp) => Promise<string>;
  exit: Promise<number | null>;
}

function interactive(child: ChildProcessWithoutNullStreams): InteractiveCli {
  let output = '';
  const waiters: Array<{ pattern: RegExp; resolve: (text: string) => void; reject: (error: Error) => void }> = [];
  const onData = (chunk: Buffer): void => {
    output += chunk.toString();
    for (const waiter of waiters.filter((w) => w.pattern.test(output))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(output);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exit = new Promise<number | null>((resolve) => child.once('close', resolve));
  void exit.then((code) => {
    for (const waiter of waiters.splice(0)) waiter.reject(new Error(`exited with ${code} before printing ${waiter.pattern}: ${output}`));
  });
  return {
    child,
    output: () => output,
    waitFor: (pattern) =>
      pattern.test(output) ? Promise.resolve(output) : new Promise<string>((resolve, reject) => waiters.push({ pattern, resolve, reject })),
    exit,
  };
}

/** Starts the command with pipes, to answer it as its output comes (a PIN once it is asked for, a kill mid-way). */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): InteractiveCli {
  assertBuilt();
  return interactive(spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, ...env } }));
}

const shellQuote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Starts the command on a real pseudo-terminal (util-linux `script`): what is written to `child.stdin` is typed on
 * the terminal, and the output is the screen, echo included, so a test can see what a person would.
 */
export function spawnCliOnTerminal(args: string[], env: NodeJS.ProcessEnv = {}): InteractiveCli {
  assertBuilt();
  const command = [process.execPath, cliPath, ...args].map(shellQuote).join(' ');
  return interactive(spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], { env: { ...process.env, ...env } }));
}
