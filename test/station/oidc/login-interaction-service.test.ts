import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StationMode } from '../../../src/core/schemas/station-mode.js';
import { IdentityService } from '../../../src/station/identity/identity-service.js';
import { smartIdSimulator } from '../../../src/station/identity/smart-id-simulator.js';
import { LoginInteractionService, parseConsentDecision, parseLoginStartForm, type LoginInteraction } from '../../../src/station/oidc/login-interaction-service.js';
import { OidcAccounts } from '../../../src/station/oidc/oidc-accounts.js';
import { oidcMigrations } from '../../../src/station/oidc/oidc-migrations.js';
import { systemClock } from '../../../src/station/ports/clock.js';
import { Database } from '../../../src/station/store/database.js';

// The login pages' decisions without HTTP or oidc-provider: a real IdentityService with the Smart-ID sandbox
// simulator (its documented test identities) and real OidcAccounts on a fresh store.
describe('LoginInteractionService', () => {
  let dir: string;
  let database: Database;
  let accounts: OidcAccounts;
  let mode: StationMode;
  let logins: LoginInteractionService;
  const interaction: LoginInteraction = { uid: 'uid-1', clientId: 'shop', requester: 'shop (https://shop.example)' };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'login-interaction-'));
    database = await Database.open(join(dir, 'station.sqlite'), oidcMigrations);
    accounts = new OidcAccounts(database, systemClock, 600);
    mode = 'sandbox';
    const identity = new IdentityService({ mode: () => mode, methods: [smartIdSimulator({ userActionMs: 200, userTimeoutMs: 60_000 })] });
    logins = new LoginInteractionService({ identity, accounts, interactionSeconds: 60 });
  });
  afterEach(async () => {
    logins.forget(interaction.uid);
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  const form = (idcode: string) => parseLoginStartForm({ method: 'smartid', idcode, country: 'ee' });

  it('starts the chosen method, shows its code while running, then saves the account and forgets the login', async () => {
    await logins.start(interaction, form('30303039914'));
    const view = logins.waiting(interaction.uid);
    expect(view?.method.code).toBe('smartid');
    expect(view?.challenge).toMatch(/^\d{4}$/);
    expect(await logins.complete(interaction.uid, 0)).toBe('RUNNING');
    expect(await logins.complete(interaction.uid, 5)).toEqual({ accountId: 'PNOEE-30303039914', amr: ['smartid'] });
    expect(await accounts.find('PNOEE-30303039914')).toMatchObject({ idcode: '30303039914', country: 'EE' });
    expect(logins.waiting(interaction.uid)).toBeUndefined();
  });

  it('a refused identification throws its reason and is forgotten', async () => {
    await logins.start(interaction, form('30403039917'));
    await expect(logins.complete(interaction.uid, 5)).rejects.toMatchObject({ code: 'ERR_IDENTITY_USER_REFUSED' });
    expect(logins.waiting(interaction.uid)).toBeUndefined();
    await expect(logins.complete(interaction.uid, 0)).rejects.toMatchObject({ code: 'ERR_IDENTITY_SESSION_NOT_FOUND', status: 404 });
  });

  it('a method the login page does not offer is refused and starts nothing', async () => {
    await expect(logins.start(interaction, parseLoginStartForm({ method: 'no-such-method' }))).rejects.toMatchObject({ code: 'ERR_IDENTITY_METHOD_UNKNOWN', status: 400 });
    mode = 'production';
    await expect(logins.start(interaction, form('30303039914'))).rejects.toMatchObject({ code: 'ERR_IDENTITY_METHOD_UNKNOWN' });
    expect(logins.waiting(interaction.uid)).toBeUndefined();
  });

  it('a second start replaces the first, and forget cancels the running one', async () => {
    await logins.start(interaction, form('30303039914'));
    const first = logins.waiting(interaction.uid);
    await logins.start(interaction, form('30303039914'));
    expect(logins.waiting(interaction.uid)).not.toBe(first);
    logins.forget(interaction.uid);
    expect(logins.waiting(interaction.uid)).toBeUndefined();
    await expect(logins.complete(interaction.uid, 0)).rejects.toMatchObject({ code: 'ERR_IDENTITY_SESSION_NOT_FOUND' });
  });

  it('refuses malformed forms with the field named', () => {
    expect(() => parseLoginStartForm({ method: 'smartid', country: 'Estonia' })).toThrow(expect.objectContaining({ code: 'ERR_INPUT_INVALID', details: { errors: { country: expect.any(Array) } } }));
    expect(() => parseConsentDecision({ decision: 'maybe' })).toThrow(expect.objectContaining({ code: 'ERR_INPUT_INVALID' }));
    expect(parseConsentDecision({ decision: 'allow' })).toBe('allow');
  });
});
