import { randomBytes } from 'node:crypto';
import type { HashSigningMethod } from '../../core/schemas/hash-signing-api.js';
import type { WEB_EID_LOGIN_METHOD } from '../../core/schemas/iframe-protocol.js';

/** One served iframe page: what it was opened for, and the certificate it handed to its embedder. */
export interface FrameTicket {
  readonly ticket: string;
  readonly clientId: string;
  readonly method: HashSigningMethod | typeof WEB_EID_LOGIN_METHOD;
  readonly docId: string | undefined;
  /** The client's allowed origins when the page was served: the only embedders it answers. */
  readonly allowedOrigins: readonly string[];
  readonly expiresAt: number;
  chosen?: { tokenId: string; certificateId: string; certificate: string };
}

const TICKET_LIFETIME_MS = 30 * 60_000;
/** Pages open at once; the oldest is forgotten first (its page then asks to be reloaded). */
const MAX_TICKETS = 256;

/**
 * Tickets the station puts into each iframe page it serves; the page sends its ticket with every call to the
 * station, which binds the call to the client, method and document the page was opened for. A page on another
 * origin cannot read a ticket: the page is served without CORS and only into the client's own origins.
 */
export class FrameTickets {
  readonly #tickets = new Map<string, FrameTicket>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  issue(frame: Omit<FrameTicket, 'ticket' | 'expiresAt' | 'chosen'>): FrameTicket {
    for (const [key, ticket] of this.#tickets) if (ticket.expiresAt < this.#now()) this.#tickets.delete(key);
    if (this.#tickets.size >= MAX_TICKETS) this.#tickets.delete(this.#tickets.keys().next().value!);
    const ticket: FrameTicket = { ...frame, ticket: randomBytes(24).toString('base64url'), expiresAt: this.#now() + TICKET_LIFETIME_MS };
    this.#tickets.set(ticket.ticket, ticket);
    return ticket;
  }

  find(ticket: string): FrameTicket | undefined {
    const found = this.#tickets.get(ticket);
    return found && found.expiresAt >= this.#now() ? found : undefined;
  }
}
