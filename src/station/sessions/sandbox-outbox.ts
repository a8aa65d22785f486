import type { Logger } from 'pino';

export interface OutboxMessage {
  at: string;
  channel: 'email' | 'sms';
  to: string;
  text: string;
}

const KEPT = 50;

/**
 * Where the sandbox "sends" one-time passwords instead of SMS or e-mail: the station's log and the outbox page
 * (/sandbox/outbox), newest first. In memory only, the last 50 messages.
 */
export class SandboxOutbox {
  readonly #messages: OutboxMessage[] = [];
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  deliver(message: Omit<OutboxMessage, 'at'>): void {
    this.#messages.unshift({ at: new Date().toISOString(), ...message });
    this.#messages.length = Math.min(this.#messages.length, KEPT);
    this.#logger.info({ channel: message.channel, to: message.to }, `sandbox outbox: ${message.text}`);
  }

  messages(): readonly OutboxMessage[] {
    return this.#messages;
  }
}
