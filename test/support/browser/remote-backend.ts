// The example integrator's server (examples/integrator/server.js) in a network namespace of its own: it has its
// own loopback and a veth pair to the browser's side, so the browser reaches it while it cannot reach the station
// on this side's 127.0.0.1 at all. Needs root in the test namespace (scripts/test-env.sh).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { run } from '../signing/signing-validators.js';

export interface RemoteBackend {
  origin: string;
  /** The example's data folder: its key, jwks.json and the signed files it stored. */
  dataDir: string;
  /** Whether a TCP connection from the backend's namespace to `host:port` is accepted. */
  connects(host: string, port: number): Promise<boolean>;
  close(): Promise<void>;
}

const SIDE_ADDRESS = '10.213.0.1';
export const BACKEND_ADDRESS = '10.213.0.2';

async function ip(...args: string[]): Promise<void> {
  const result = await run('ip', args);
  if (result.code !== 0) throw new Error(`ip ${args.join(' ')}: ${result.stderr}`);
}

/** `tls`: the server's certificate and key files (the address is BACKEND_ADDRESS), for an https page. */
export async function startRemoteBackend(options: { station: string; dataDir: string; trust: string[]; tls?: { cert: string; key: string } }): Promise<RemoteBackend> {
  const name = `backend${process.pid}`;
  const [outer, inner] = [`rbo${process.pid % 100_000}`, `rbi${process.pid % 100_000}`];
  await ip('netns', 'add', name);
  let child: ChildProcess | undefined;
  const close = async (): Promise<void> => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await run('ip', ['link', 'del', outer]);
    await run('ip', ['netns', 'del', name]);
  };
  try {
    await ip('link', 'add', outer, 'type', 'veth', 'peer', 'name', inner);
    await ip('link', 'set', inner, 'netns', name);
    // No IPv6 link-local address on the host's end: its duplicate-address check ends a second or two after the link
    // is up, and Chromium aborts every request in flight (ERR_NETWORK_CHANGED) when a host address changes.
    await ip('link', 'set', 'dev', outer, 'addrgenmode', 'none');
    await ip('addr', 'add', `${SIDE_ADDRESS}/30`, 'dev', outer);
    await ip('link', 'set', outer, 'up');
    await ip('netns', 'exec', name, 'ip', 'addr', 'add', `${BACKEND_ADDRESS}/30`, 'dev', inner);
    await ip('netns', 'exec', name, 'ip', 'link', 'set', inner, 'up');
    await ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
    const args = ['examples/integrator/server.js', '--host', BACKEND_ADDRESS, '--port', '0', '--station', options.station, '--data', options.dataDir, ...options.trust.flatMap((file) => ['--trust', file]), ...(options.tls ? ['--cert', options.tls.cert, '--key', options.tls.key] : [])];
    child = spawn('ip', ['netns', 'exec', name, process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const origin = await new Promise<string>((resolve, reject) => {
      child!.once('exit', (code) => reject(new Error(`the example backend exited with ${code}`)));
      createInterface({ input: child!.stdout! }).on('line', (line) => {
        const match = /^listening (\S+)/.exec(line);
        if (match) resolve(match[1]!);
      });
    });
    return {
      origin,
      dataDir: options.dataDir,
      connects: async (host, port) => {
        const probe = `require('net').connect(${port}, '${host}').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
        return (await run('ip', ['netns', 'exec', name, process.execPath, '-e', probe])).code === 0;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
