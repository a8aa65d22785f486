import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandler } from '../../../src/station/http/install-error-handler.js';
import { trustRoutes } from '../../../src/station/http/routes/trust-routes.js';
import { createTestCa, type TestCa } from '../../support/pki/test-pki.js';
import { createListSigner, nationalListXml, signWithXmlsec } from '../../support/verification/trusted-list-xml.js';

let dir: string;
let app: FastifyInstance;
let ca: TestCa;
let tsa: TestCa;
let fingerprint: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trust-routes-'));
  [ca, tsa] = await Promise.all([createTestCa('CN=Someone Else CA,C=EE'), createTestCa('CN=Station TSA Root,C=EE')]);
  fingerprint = createHash('sha256').update(ca.der).digest('hex');
  app = Fastify();
  installErrorHandler(app);
  await app.register(trustRoutes({ dataDir: dir, tsaCertificates: () => [tsa.der] }), { prefix: '/admin/api' });
});

afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the trust API the window’s Settings call', () => {
  it('lists the trust sources: EU lists on by default, nothing added, this station’s TSA with its fingerprint', async () => {
    const answer = await app.inject({ method: 'GET', url: '/admin/api/trust' });
    expect(answer.json()).toMatchObject({ euLists: { enabled: true }, lists: [], added: [], stationTsa: { subject: tsa.certificate.subject, fingerprint: createHash('sha256').update(tsa.der).digest('hex') } });
  });

  it('refuses "trust this issuer" when the certificate is not the one whose fingerprint the person saw, adding nothing', async () => {
    const answer = await app.inject({ method: 'POST', url: '/admin/api/trust/certificates', payload: { certificate: Buffer.from(ca.der).toString('base64'), fingerprint: 'ab'.repeat(32) } });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ code: 'ERR_TRUST_CERTIFICATE_INVALID' });
    expect((await app.inject({ method: 'GET', url: '/admin/api/trust' })).json().added).toEqual([]);
  });

  it('adds by fingerprint, turns the EU lists off, and removes what was added', async () => {
    const added = await app.inject({ method: 'POST', url: '/admin/api/trust/certificates', payload: { certificate: ca.pem, fingerprint: fingerprint.toUpperCase().match(/../g)!.join(':') } });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ fingerprint, subject: ca.certificate.subject });
    expect((await app.inject({ method: 'PUT', url: '/admin/api/trust/eu', payload: { enabled: false } })).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: '/admin/api/trust' })).json()).toMatchObject({ euLists: { enabled: false }, added: [{ fingerprint }] });
    expect((await app.inject({ method: 'DELETE', url: `/admin/api/trust/certificates/${fingerprint}` })).statusCode).toBe(204);
    expect((await app.inject({ method: 'DELETE', url: `/admin/api/trust/certificates/${fingerprint}` })).json()).toMatchObject({ code: 'ERR_TRUST_CERTIFICATE_NOT_FOUND' });
  });

  it('imports dropped lists as `trust import` does: a national list with no list of lists known is refused, saying so', async () => {
    const signer = await createListSigner('Dropped list signer');
    const xml = await signWithXmlsec(nationalListXml({ territory: 'EE', sequence: 1 }, []), signer);
    const answer = await app.inject({ method: 'POST', url: '/admin/api/trust/lists', payload: { lists: [{ name: 'ee.xml', xml }] } });
    expect(answer.json()).toMatchObject({ lists: [{ territory: 'ee.xml', outcome: 'refused', message: expect.stringContaining('No list of lists known here points to a list for EE') }] });
  });

  it('refuses what is not a certificate before storing anything', async () => {
    const answer = await app.inject({ method: 'POST', url: '/admin/api/trust/certificates', payload: { certificate: 'not a certificate' } });
    expect(answer.json()).toMatchObject({ code: 'ERR_TRUST_CERTIFICATE_INVALID' });
  });
});
