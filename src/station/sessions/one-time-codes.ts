import { randomInt, timingSafeEqual } from 'node:crypto';
import { StationError } from '../../core/errors/station-error.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import type { SandboxOutbox } from './sandbox-outbox.js';

const ATTEMPTS = 3;
const LIFETIME_MS = 10 * 60_000;

export interface SentCode {
  to: string;
  channel: 'email' | 'sms';
  /** What the sender remembers with the code (the signer's country...). */
  country: string;
}

interface Entry extends SentCode {
  code: string;
  attemptsLeft: number;
  expiresAt: number;
}

/**
 * Six-digit codes the sandbox "sends" (to its outbox and log) and later checks: 3 tries, 10 minutes, single use,
 * compared in constant time. Used by OTP signing and by the confirmation-code providers.
 */
export class OneTimeCodes {
  readonly #outbox: SandboxOutbox;
  readonly #entries = new Map<string, Entry>();

  constructor(outbox: SandboxOutbox) {
    this.#outbox = outbox;
  }

  send(key: string, sent: SentCode, purpose: string): void {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    this.#entries.set(key, { ...sent, code, attemptsLeft: ATTEMPTS, expiresAt: Date.now() + LIFETIME_MS });
    this.#outbox.deliver({ channel: sent.channel, to: sent.to, text: `Your ${purpose} code is ${code}.` });
  }

  /** Takes the code when `typed` matches; otherwise counts a try and throws `field` as the wrong member. */
  take(key: string, typed: string | undefined, field: string): SentCode {
    const entry = this.#entries.get(key);
    if (!entry || entry.expiresAt < Date.now()) throw new StationError('ERR_SIGNING_CODE_NOT_SENT', 'No code was sent for this signature (or it expired); start again.', { status: 409 });
    if (typed === undefined || typed.length !== entry.code.length || !timingSafeEqual(Buffer.from(typed), Buffer.from(entry.code))) {
      if (--entry.attemptsLeft <= 0) this.#entries.delete(key);
      throw new InvalidInputError(`The code is wrong (${entry.attemptsLeft} tries left).`, { [field]: ['does not match'] });
    }
    this.#entries.delete(key);
    return entry;
  }
}
