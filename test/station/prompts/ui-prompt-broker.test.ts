import { describe, expect, it } from 'vitest';
import { MAX_PENDING_PROMPTS, MAX_PENDING_PROMPTS_PER_REQUESTER, UiPromptBroker } from '../../../src/station/prompts/ui-prompt-broker.js';
import type { SignatureConsentRequest } from '../../../src/core/schemas/prompts.js';
import type { Clock } from '../../../src/station/ports/clock.js';

const consent = (requester: string): SignatureConsentRequest => ({
  purpose: 'sign',
  requester,
  documentDigest: 'ab'.repeat(32),
  signerSubject: 'CN=Signer',
  signerIssuer: 'CN=CA',
  signerSerialNumber: '01',
});

/** The station's clock stands still in these tests: a prompt's time is the clock's, not the machine's. */
const stillClock: Clock = { now: () => new Date('2030-01-02T03:04:05.000Z') };

describe('UiPromptBroker time', () => {
  it('stamps each prompt with the Clock port\'s time', async () => {
    const broker = new UiPromptBroker(stillClock);
    const abort = new AbortController();
    const answer = broker.confirm(consent('https://shop.example'), abort.signal);
    expect(broker.pending().map((prompt) => prompt.createdAt)).toEqual(['2030-01-02T03:04:05.000Z']);
    abort.abort();
    expect(await answer).toBe(false);
  });
});

describe('UiPromptBroker bounds', () => {
  it('refuses more open prompts from one requester than the limit, with a retriable 429, before the user sees it', async () => {
    const broker = new UiPromptBroker(stillClock);
    const abort = new AbortController();
    const open = Array.from({ length: MAX_PENDING_PROMPTS_PER_REQUESTER }, () => broker.confirm(consent('https://flood.example'), abort.signal));
    await expect(broker.confirm(consent('https://flood.example'))).rejects.toMatchObject({ code: 'ERR_PROMPT_TOO_MANY', status: 429, retriable: true });
    expect(broker.pending()).toHaveLength(MAX_PENDING_PROMPTS_PER_REQUESTER);
    const other = broker.confirm(consent('https://shop.example'), abort.signal);
    expect(broker.pending()).toHaveLength(MAX_PENDING_PROMPTS_PER_REQUESTER + 1);
    abort.abort();
    expect(await Promise.all([...open, other])).toEqual(new Array(MAX_PENDING_PROMPTS_PER_REQUESTER + 1).fill(false));
  });

  it('refuses any prompt beyond the overall limit', async () => {
    const broker = new UiPromptBroker(stillClock);
    const abort = new AbortController();
    const open = Array.from({ length: MAX_PENDING_PROMPTS }, (_, index) => broker.confirm(consent(`https://page-${index}.example`), abort.signal));
    await expect(broker.confirm(consent('https://late.example'))).rejects.toMatchObject({ code: 'ERR_PROMPT_TOO_MANY' });
    abort.abort();
    await Promise.all(open);
    expect(broker.pending()).toEqual([]);
  });

  it('withdraws a prompt as soon as its requester goes away, and declines it', async () => {
    const broker = new UiPromptBroker(stillClock);
    const abort = new AbortController();
    const answer = broker.confirm(consent('https://shop.example'), abort.signal);
    expect(broker.pending()).toHaveLength(1);
    abort.abort();
    expect(await answer).toBe(false);
    expect(broker.pending()).toEqual([]);
  });
});

describe('UiPromptBroker logins', () => {
  const login = (requester: string, challenge: string): SignatureConsentRequest => ({ ...consent(requester), purpose: 'authenticate', clientId: 'shop', documentDigest: challenge });

  it('withdraws an open login prompt when the same page asks the same login again: the two never stack', async () => {
    const broker = new UiPromptBroker(stillClock);
    const first = broker.confirm(login('https://shop.example', 'aa'.repeat(32)));
    const other = broker.confirm(login('https://other.example', 'bb'.repeat(32)));
    const second = broker.confirm(login('https://shop.example', 'cc'.repeat(32)));
    expect(await first).toBe(false);
    expect(broker.pending().map((prompt) => prompt.kind === 'consent' && prompt.request.documentDigest)).toEqual(['bb'.repeat(32), 'cc'.repeat(32)]);
    for (const prompt of broker.pending()) broker.answer(prompt.id, { kind: 'consent', accept: true });
    expect(await Promise.all([other, second])).toEqual([true, true]);
  });
});
