import { appendFile, copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkcs11ModulesViewSchema } from '../../../../src/core/schemas/pkcs11-modules.js';
import { createHttpServer } from '../../../../src/station/http/create-http-server.js';
import { UiSessions } from '../../../../src/station/http/ui-sessions.js';
import { UiPromptBroker } from '../../../../src/station/prompts/ui-prompt-broker.js';
import { systemClock } from '../../../../src/station/ports/clock.js';
import { Database } from '../../../../src/station/store/database.js';
import { Pkcs11ModuleRegistry, pkcs11Migrations } from '../../../../src/station/tokens/pkcs11/pkcs11-module-registry.js';
import { pkcs11ModuleRoutes } from '../../../../src/station/tokens/pkcs11/pkcs11-module-routes.js';
import { createPkcs11TokenSource } from '../../../../src/station/tokens/pkcs11/create-pkcs11-token-source.js';
import type { Pkcs11TokenSource } from '../../../../src/station/tokens/pkcs11/pkcs11-token-source.js';
import { readBearerCredential } from '../../../../src/station/http/read-bearer-credential.js';
import { createSoftHsm, SOFTHSM_MODULE, SOFTHSM_MODULE_FILE, type SoftHsm } from '../../../support/pkcs11/pkcs11-softhsm.js';

let ORIGIN: string; // the station's own address, known once it listens
let dir: string;
let database: Database;
let softhsm: SoftHsm;
let source: Pkcs11TokenSource;
let app: FastifyInstance;
let authorization: string;
let prompts: UiPromptBroker;
let registry: Pkcs11ModuleRegistry;
const registryPaths = async (): Promise<string[]> => (await registry.list()).map((entry) => entry.path);
let outsideCopy: string;

beforeAll(async () => {
  softhsm = await createSoftHsm();
  await softhsm.createToken('Added Later', '1234', []);
  dir = await mkdtemp(join(tmpdir(), 'module-routes-'));
  database = await Database.open(join(dir, 'station.sqlite'), pkcs11Migrations);
  registry = new Pkcs11ModuleRegistry(database);
  source = createPkcs11TokenSource({ includeKnown: false, registry });
  await source.start();
  const sessions = new UiSessions();
  prompts = new UiPromptBroker(systemClock);
  outsideCopy = join(dir, 'copied-softhsm2.so');
  await copyFile(SOFTHSM_MODULE, outsideCopy);
  app = createHttpServer({
    logger: pino({ level: 'silent' }),
    allowedHosts: () => new Set([new URL(ORIGIN).host]),
    clients: { find: async () => undefined, allOrigins: async () => new Set<string>() },
    isUiSession: (request) => sessions.isValid(readBearerCredential(request.headers.authorization)),
  });
  await app.register(pkcs11ModuleRoutes({ registry, source, ready: async () => undefined }), { prefix: '/admin/api' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  ORIGIN = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  authorization = `Bearer ${sessions.issueCredential()}`;
});

afterAll(async () => {
  await app?.close();
  await source?.stop();
  await database?.close();
  await softhsm?.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = { authorization, origin: ORIGIN }) {
  const json = body === undefined ? {} : { body: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } };
  const response = await fetch(`${ORIGIN}${url}`, { method, headers, ...json });
  const text = await response.text();
  return { statusCode: response.status, json: (): unknown => JSON.parse(text) };
}

const NOT_PKCS11_IN_ALLOWLIST = '/usr/lib/x86_64-linux-gnu/libz.so.1';

/** Whether this process has the file mapped: dlopen maps a library, so an unloaded one never appears. */
async function mappedIntoProcess(path: string): Promise<boolean> {
  return (await readFile('/proc/self/maps', 'utf8')).includes(path);
}

describe('module settings in the station UI (/admin/api/pkcs11/modules)', () => {
  it('needs the UI session and the station origin', async () => {
    expect((await call('GET', '/admin/api/pkcs11/modules', undefined, { origin: ORIGIN })).statusCode).toBe(401);
    expect((await call('POST', '/admin/api/pkcs11/modules', { path: SOFTHSM_MODULE }, { authorization })).statusCode).toBe(403);
    expect((await call('POST', '/admin/api/pkcs11/modules', { path: SOFTHSM_MODULE }, { authorization, origin: 'https://evil.example' })).statusCode).toBe(403);
    expect(source.tokens()).toEqual([]);
  });

  it('adding a module loads it at once and its tokens appear; removing it unloads them', async () => {
    const changed = new Promise<void>((resolve) => source.onChange(resolve));
    const added = await call('POST', '/admin/api/pkcs11/modules', { path: SOFTHSM_MODULE });
    expect(added.statusCode).toBe(201);
    await changed;
    expect(source.tokens().map((t) => t.label)).toEqual(['Added Later']);
    const view = pkcs11ModulesViewSchema.parse((await call('GET', '/admin/api/pkcs11/modules')).json());
    expect(view.loaded).toEqual([expect.objectContaining({ path: SOFTHSM_MODULE_FILE, origin: 'user' })]);
    expect(view.user).toEqual([expect.objectContaining({ path: SOFTHSM_MODULE_FILE, kind: 'module' })]);

    expect((await call('DELETE', `/admin/api/pkcs11/modules?path=${encodeURIComponent(SOFTHSM_MODULE)}`)).statusCode).toBe(204);
    expect(source.tokens()).toEqual([]);
    expect((await call('DELETE', `/admin/api/pkcs11/modules?path=${encodeURIComponent(SOFTHSM_MODULE)}`)).statusCode).toBe(404);
  });

  it('refuses a path that is not a PKCS#11 library with a 400 that says why', async () => {
    const response = await call('POST', '/admin/api/pkcs11/modules', { path: NOT_PKCS11_IN_ALLOWLIST });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 'error', message: expect.stringMatching(/not a PKCS#11 library/) });
    expect((await call('POST', '/admin/api/pkcs11/modules', { path: SOFTHSM_MODULE, extra: 1 })).statusCode).toBe(400);
  });

  it('lets no holder of the UI credential trust a library outside the allowlist: no prompt, nothing loaded, the CLI command named', async () => {
    const digest = createHash('sha256').update(await readFile(outsideCopy)).digest('hex');
    const refused = await call('POST', '/admin/api/pkcs11/modules', { path: outsideCopy });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'ERR_TOKEN_MODULE_NOT_TRUSTED',
      message: expect.stringContaining(`signing-station tokens modules add ${outsideCopy} --trust-sha256 ${digest}`),
    });
    expect(prompts.pending()).toEqual([]);
    expect(await mappedIntoProcess(outsideCopy)).toBe(false);
    expect(await registryPaths()).not.toContain(outsideCopy);
  });

  it('never loads anything on a request refused before the prompt (no Origin, a file that is not a library)', async () => {
    const bogus = join(dir, 'not-a-module.so');
    await appendFile(bogus, 'not an ELF file');
    expect((await call('POST', '/admin/api/pkcs11/modules', { path: bogus }, { authorization })).statusCode).toBe(403);
    expect(prompts.pending()).toEqual([]);
    expect(await mappedIntoProcess(bogus)).toBe(false);
  });

  it('loads a library the user trusted on their terminal, and not any more once the file changes', async () => {
    const digest = createHash('sha256').update(await readFile(outsideCopy)).digest('hex');
    // What `tokens modules add --trust-sha256` does: the registry with the user's own confirmation.
    await registry.add(outsideCopy, 'module', async (file) => file.sha256 === digest);
    await source.refreshModules();
    const view = pkcs11ModulesViewSchema.parse((await call('GET', '/admin/api/pkcs11/modules')).json());
    expect(view.loaded.map((module) => module.path)).toContain(outsideCopy);
    expect((await registry.list()).find((entry) => entry.path === outsideCopy)).toMatchObject({ sha256: digest });

    expect((await call('DELETE', `/admin/api/pkcs11/modules?path=${encodeURIComponent(outsideCopy)}`)).statusCode).toBe(204);
    await registry.add(outsideCopy, 'module', async () => true);
    await appendFile(outsideCopy, Buffer.from('tampered'));
    await source.refreshModules();
    expect(source.modules().map((module) => module.path)).not.toContain(outsideCopy);
    expect(source.problems().map((problem) => problem.message).join('\n')).toMatch(/changed since you trusted it/);
    await registry.remove(outsideCopy);
    await source.refreshModules();
  });
});
