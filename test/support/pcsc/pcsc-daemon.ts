// Starts and stops the real pcscd for tests, only inside the test namespace (scripts/test-env.sh): there the
// loopback, /run/pcscd and the vpcd ports are private, so the host's pcscd and readers are never touched.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const SOCKET = '/run/pcscd/pcscd.comm';
const VPCD_PORTS = [35963, 35964];

export class PcscDaemon {
  private child: ChildProcess | undefined;
  private output = '';

  static assertTestNamespace(): void {
    if (process.env.SIGNING_STATION_TEST_NAMESPACE !== '1') {
      throw new Error('pcscd tests run only in the test namespace: bash scripts/test-env.sh npx vitest run ...');
    }
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts pcscd in the foreground and waits until its socket exists and vpcd listens on both reader ports. */
  async start(timeoutMs = 5000): Promise<void> {
    PcscDaemon.assertTestNamespace();
    if (this.child) throw new Error('pcscd already started');
    const child = spawn('pcscd', ['--foreground', '--info'], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    // A test process that dies without its afterAll must not leave pcscd behind in the namespace.
    const orphanGuard = () => child.kill('SIGKILL');
    process.once('exit', orphanGuard);
    child.once('exit', () => process.removeListener('exit', orphanGuard));
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.once('exit', () => {
      if (this.child === child) this.child = undefined;
    });
    const deadline = Date.now() + timeoutMs;
    while (!(existsSync(SOCKET) && VPCD_PORTS.every(listening))) {
      if (!this.child) throw new Error(`pcscd exited at start:\n${this.output}`);
      if (Date.now() > deadline) {
        await this.stop();
        await exited;
        throw new Error(`pcscd not ready after ${timeoutMs} ms:\n${this.output}`);
      }
      await sleep(10);
    }
  }

  /** Stops pcscd by its pid (SIGTERM, then SIGKILL) and waits until it has exited. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const killed = await Promise.race([exited.then(() => true), sleep(3000).then(() => false)]);
    if (!killed) {
      child.kill('SIGKILL');
      await exited;
    }
    this.child = undefined;
  }

  /** pcscd's recent log, for failure messages. */
  log(): string {
    return this.output;
  }
}

/** True when something listens on 127.0.0.1:`port` (read from /proc: probing vpcd would insert a card). */
function listening(port: number): boolean {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .some((line) => {
      const fields = line.trim().split(/\s+/);
      return fields[1]?.endsWith(hex) === true && fields[3] === '0A';
    });
}
