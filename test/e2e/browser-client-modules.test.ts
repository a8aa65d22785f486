import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestStation } from '../support/station/test-station.js';
import type { Integrator } from '../support/browser/iframe-integrator.js';
import { prepareDocument } from '../support/signing/signing-session-client.js';
import { startClientTestbed, type ClientTestbed } from '../support/browser/client-integrator.js';
import { IDENTIFICATION_MODULES, SIGNATURE_MODULES, type ModuleFlow, type ModuleRow } from '../../src/client/module-table.js';

const SECRET = 'shop-api-secret-0123456789';
/** A value for every input a module may require. */
const INPUTS = { idcode: '38001085718', phone: '+37200000766', email: 'signer@example.com', username: 'signer', password: 'pw', pin: '1234', signingPin: '1234', otpCode: '123456', userId: 'user', profileId: 'profile', name: 'Signer', documentType: 'pid' };

interface Started {
  module: string;
  redirect?: string;
  failure?: string;
}

// Every redirect-based module of the station's client, under every key, reaches the station's simulated provider
// page: signature modules through start-signing, identification modules through /oauth/start/<method>.
describe('browser client: every redirect-based module key reaches a provider page', () => {
  let testbed: ClientTestbed | undefined;
  let station: TestStation;
  let integrator: Integrator;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    testbed = await startClientTestbed({ secret: SECRET });
    ({ station, integrator, browser, page } = testbed);
  });
  afterAll(async () => {
    await testbed?.close();
  });

  const keysOf = (rows: readonly ModuleRow[], flow: ModuleFlow): string[] => rows.filter((row) => row[1] === flow).map((row) => row[0]);

  /** Starts each named module of one kind with a redirect callback; resolves with where each would go. */
  const startAll = (kind: 'identification' | 'signature', keys: string[], docIds: string[]): Promise<Started[]> =>
    page.evaluate(
      async ([kindName, keys, docs, base, origin, inputs]) => {
        type Client = {
          getAllMethods(): Record<string, Array<{ handlingModule: string; supportedCountries: string[] }>>;
        } & Record<string, Record<string, { start(options: object): void }>>;
        const factory = (window as unknown as { serviceBrowserClient: { createClient(settings: object): Client } }).serviceBrowserClient;
        const probe = factory.createClient({ clientId: 'shop' });
        const methods = probe.getAllMethods()[kindName]!;
        const results: Started[] = [];
        let next = 0;
        for (const module of keys) {
          const countryCode = methods.find((method) => method.handlingModule === module)?.supportedCountries[0];
          results.push(
            await new Promise<Started>((resolve) => {
              const client = factory.createClient({ clientId: 'shop', docId: docs[next], redirectUri: `${origin}/back`, apiEndpoints: { base: () => base } });
              const started: Started = { module };
              try {
                client[kindName]![module]!.start({
                  ...inputs,
                  countryCode: countryCode === 'WORLD' ? 'EE' : countryCode,
                  redirect: ({ data }: { data: { redirect_uri: string } }) => void (started.redirect = data.redirect_uri),
                  fail: (error: Error) => void (started.failure = error.message),
                  finished: () => resolve(started),
                });
              } catch (error) {
                resolve({ module, failure: (error as Error).message });
              }
            }),
          );
          next++;
        }
        return results;
      },
      [kind, keys, docIds, station.baseUrl, integrator.origin, INPUTS] as const,
    );

  it('every redirect-based identification key (22) opens the provider page', async () => {
    const started = await startAll('identification', keysOf(IDENTIFICATION_MODULES, 'oauth'), []);
    expect(started).toHaveLength(22);
    for (const entry of started) {
      const response = await fetch(entry.redirect!);
      expect(response.status, `${entry.module} ${entry.redirect}`).toBe(200);
      expect(await response.text(), entry.module).toContain('Sandbox simulator: no real provider is involved.');
    }
  });

  it('every redirect-based signature key (53) gets the provider page from start-signing', async () => {
    const keys = keysOf(SIGNATURE_MODULES, 'redirect');
    expect(keys).toHaveLength(53);
    const docIds = await Promise.all(keys.map(() => prepareDocument({ baseUrl: station.baseUrl, clientId: 'shop', secret: SECRET })));
    const started = await startAll('signature', keys, docIds);
    expect(started.filter((entry) => !entry.redirect?.startsWith(`${station.baseUrl}/sandbox/provider/sign/`))).toEqual([]);
    const providerPage = await fetch(started[0]!.redirect!);
    expect(providerPage.status).toBe(200);
  });
});
