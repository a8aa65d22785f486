import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkcs11ModulesViewSchema } from '../../../../src/core/schemas/pkcs11-modules.js';
import { createHttpServer } from '../../../../src/station/http/create-http-server.js';
import { UiSessions } from '../../../../src/station/http/ui-sessions.js';
import { Database } from '../../../../src/station/store/database.js';
import { Pkcs11ModuleRegistry, pkcs11Migrations } from '../../../../src/station/tokens/pkcs11/pkcs11-module-registry.js';
import { pkcs11ModuleRoutes } from '../../../../src/station/tokens/pkcs11/pkcs11-module-routes.js';
import { createPkcs11TokenSource } from '../../../../src/station/tokens/pkcs11/create-pkcs11-token-source.js';
import type { Pkcs11TokenSource } from '../../../../src/station/tokens/pkcs11/pkcs11-token-source.js';
import { readBearerCredential } from '../../../../src/station/http/read-bearer-credential.js';
import { createSoftHsm, SOFTHSM_MODULE, type SoftHsm } from '../../../support/pkcs11-softhsm.js';

const ORIGIN = 'http://127.0.0.1:47001';
let dir: string;
let database: Database;
let softhsm: SoftHsm;
let source: Pkcs11TokenSource;
let app: FastifyInstance;
let authorization: string;

beforeAll(async () => {
  softhsm = await createSoftHsm();
  await softhsm.createToken('Added Later', '1234', []);
  dir = await mkdtemp(join(tmpdir(), 'module-routes-'));
  database = await Database.open(join(dir, 'station.sqlite'), pkcs11Migrations);
  const registry = new Pkcs11ModuleRegistry(database);
  source = createPkcs11TokenSource({ includeKnown: false, registry });
  await source.start();
  const sessions = new UiSessions();
  app = createHttpServer({
    logger: pino({ level: 'silent' }),
    allowedHosts: () => new Set(['127.0.0.1:47001']),
    stationOrigin: () => ORIGIN,
    clients: { find: async () => undefined, allOrigins: async () => new Set<string>() },
    isUiSession: (request) => sessions.isValid(readBearerCredential(request.headers.authorization)),
  });
  await app.register(pkcs11ModuleRoutes({ registry, source }), { prefix: '/admin/api' });
  await app.ready();
  authorization = `Bearer ${sessions.issueCredential()}`;
});

afterAll(async () => {
  await app?.close();
  await source?.stop();
  await database?.close();
  await softhsm?.dispose();
  await rm(dir, { recursive: true, force: true });
});

function call(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = { authorization, origin: ORIGIN }) {
  return app.inject({ method, url, headers: { host: '127.0.0.1:47001', ...headers }, ...(body === undefined ? {} : { payload: body as object }) });
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
    expect(view.loaded).toEqual([expect.objectContaining({ path: SOFTHSM_MODULE, origin: 'user' })]);
    expect(view.user).toEqual([expect.objectContaining({ path: SOFTHSM_MODULE, kind: 'module' })]);

    expect((await call('DELETE', `/admin/api/pkcs11/modules?path=${encodeURIComponent(SOFTHSM_MODULE)}`)).statusCode).toBe(204);
    expect(source.tokens()).toEqual([]);
    expect((await call('DELETE', `/admin/api/pkcs11/modules?path=${encodeURIComponent(SOFTHSM_MODULE)}`)).statusCode).toBe(404);
  });

  it('refuses a path that is not a PKCS#11 library with a 400 that says why', async () => {
    const response = await call('POST', '/admin/api/pkcs11/modules', { path: '/etc/hostname' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 'error', message: expect.stringMatching(/not a PKCS#11 library/) });
    expect((await call('POST', '/admin/api/pkcs11/modules', { path: SOFTHSM_MODULE, extra: 1 })).statusCode).toBe(400);
  });
});
