import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { runCli } from '../support/station/run-cli.js';

describe('signing-station clients', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cli-clients-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('adds a client with JWKS, IPs, origins and a secret from stdin, and lists it without the secret', async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwksFile = join(dataDir, 'jwks.json');
    await writeFile(jwksFile, JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' }] }));
    const secret = 'a-very-secret-api-secret-42';
    const added = await runCli(
      ['clients', 'add', '--client-id', 'shop', '--redirect-uri', 'https://shop.example/cb', '--jwks', jwksFile, '--allowed-ip', '127.0.0.1', '--allowed-ip', '10.0.0.0/8', '--allowed-origin', 'https://shop.example', '--secret-stdin', '--data-dir', dataDir],
      { stdin: `${secret}\n` },
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('client shop added (secret in the vault)');

    const listed = await runCli(['clients', 'list', '--json', '--data-dir', dataDir]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(secret);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        clientId: 'shop',
        redirectUris: ['https://shop.example/cb'],
        allowedIps: ['127.0.0.1', '10.0.0.0/8'],
        allowedOrigins: ['https://shop.example'],
        hasSecret: true,
        jwks: { keys: [expect.objectContaining({ kid: 'k1', kty: 'RSA' })] },
      }),
    ]);
  });

  it('refuses bad input naming the flag and the value, and changes nothing', async () => {
    const bad = await runCli([
      'clients', 'add', '--client-id', 'other', '--allowed-origin', 'https://x.example/path', '--allowed-origin', 'app.example',
      '--allowed-ip', 'not-an-ip', '--allowed-ip', '999.1.1.1', '--redirect-uri', 'app.example/cb', '--data-dir', dataDir,
    ]);
    expect(bad.code).toBe(2);
    for (const flag of ['--allowed-origin https://x.example/path', '--allowed-origin app.example', '--allowed-ip not-an-ip', '--allowed-ip 999.1.1.1', '--redirect-uri app.example/cb']) {
      expect(bad.stderr).toContain(`${flag}: must be`);
    }
    expect(bad.stderr).toContain('ERR_INPUT_INVALID');
    expect(bad.stderr).not.toMatch(/allowedOrigins|registration\.|\n\s+at /);
    const listed = JSON.parse((await runCli(['clients', 'list', '--json', '--data-dir', dataDir])).stdout) as Array<{ clientId: string }>;
    expect(listed.map((c) => c.clientId)).toEqual(['shop']);
  });

  it('refuses `clients add` on an existing client, pointing to `clients update`, which changes only what it is given', async () => {
    const before = JSON.parse((await runCli(['clients', 'list', '--json', '--data-dir', dataDir])).stdout) as Array<Record<string, unknown>>;
    const again = await runCli(['clients', 'add', '--client-id', 'shop', '--secret-stdin', '--data-dir', dataDir], { stdin: 'another-secret-of-enough-length\n' });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('signing-station clients update shop');
    expect(again.stderr).toContain('ERR_CLIENT_EXISTS');
    expect(JSON.parse((await runCli(['clients', 'list', '--json', '--data-dir', dataDir])).stdout)).toEqual(before);

    const updated = await runCli(['clients', 'update', 'shop', '--allowed-ip', '192.168.1.0/24', '--data-dir', dataDir]);
    expect(updated.code, updated.stderr).toBe(0);
    const [after] = JSON.parse((await runCli(['clients', 'list', '--json', '--data-dir', dataDir])).stdout) as Array<Record<string, unknown>>;
    expect(after).toEqual({ ...before[0], allowedIps: ['192.168.1.0/24'], updatedAt: after!.updatedAt });

    const nothing = await runCli(['clients', 'update', 'shop', '--data-dir', dataDir]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Nothing to change');
    const unknown = await runCli(['clients', 'update', 'nobody', '--allowed-ip', '127.0.0.1', '--data-dir', dataDir]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('ERR_CLIENT_NOT_FOUND');
  });

  it('removes a client, and says so for an unknown one', async () => {
    expect((await runCli(['clients', 'remove', 'shop', '--data-dir', dataDir])).code).toBe(0);
    expect(JSON.parse((await runCli(['clients', 'list', '--json', '--data-dir', dataDir])).stdout)).toEqual([]);
    const again = await runCli(['clients', 'remove', 'shop', '--data-dir', dataDir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('ERR_CLIENT_NOT_FOUND');
  });

  it('has --help for every command', async () => {
    for (const args of [[], ['serve'], ['clients'], ['clients', 'add'], ['clients', 'update'], ['clients', 'list'], ['clients', 'remove']]) {
      const help = await runCli([...args, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Usage: signing-station');
    }
  });
});
