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
/** Pages open at once per client and embedder; the oldest of that embedder is forgotten first (its page then asks to be reloaded). */
const MAX_TICKETS_PER_EMBEDDER = 256;

/**
 * Tickets the station puts into each iframe page it serves; the page sends its ticket with every call to the
 * station, which binds the call to the client, method and document the page was opened for. A page on another
 * origin cannot read a ticket: the page is served without CORS and only into the client's own origins.
 *
 * Any web page can request the helper page (a no-cors GET, a blocked frame) and so make tickets, so they are
 * counted per client and per embedder: the origin in the request's Referer when it is one of the client's
 * origins (a browser sets it, a page cannot claim another origin's), else one shared "unlisted" group. A flood
 * from one page then pushes out only its own group's tickets, never those of frames open in an allowed origin.
 */
export class FrameTickets {
  readonly #tickets = new Map<string, FrameTicket>();
  /** Ticket ids per client and embedder, oldest first. */
  readonly #groups = new Map<string, Set<string>>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** `referer`: the Referer header of the request for the page. */
  issue(frame: Omit<FrameTicket, 'ticket' | 'expiresAt' | 'chosen'>, referer?: string): FrameTicket {
    this.#forgetExpired();
    const key = `${frame.clientId}\n${listedEmbedder(referer, frame.allowedOrigins) ?? ''}`;
    const group = this.#groups.get(key) ?? new Set<string>();
    this.#groups.set(key, group);
    if (group.size >= MAX_TICKETS_PER_EMBEDDER) {
      const oldest = group.values().next().value!;
      group.delete(oldest);
      this.#tickets.delete(oldest);
    }
    const ticket: FrameTicket = { ...frame, ticket: randomBytes(24).toString('base64url'), expiresAt: this.#now() + TICKET_LIFETIME_MS };
    this.#tickets.set(ticket.ticket, ticket);
    group.add(ticket.ticket);
    return ticket;
  }

  #forgetExpired(): void {
    for (const [key, group] of this.#groups) {
      for (const id of group) {
        if ((this.#tickets.get(id)?.expiresAt ?? 0) >= this.#now()) continue;
        group.delete(id);
        this.#tickets.delete(id);
      }
      if (group.size === 0) this.#groups.delete(key);
    }
  }

  find(ticket: string): FrameTicket | undefined {
    const found = this.#tickets.get(ticket);
    return found && found.expiresAt >= this.#now() ? found : undefined;
  }
}

function listedEmbedder(referer: string | undefined, allowedOrigins: readonly string[]): string | undefined {
  if (!referer || !URL.canParse(referer)) return undefined;
  const origin = new URL(referer).origin;
  return allowedOrigins.includes(origin) ? origin : undefined;
}
