import { createHash } from 'node:crypto';
import type { TokenCertificate } from '../../core/schemas/token-description.js';
import type { IframeSignatureCall, WebEidAuthToken } from '../../core/schemas/iframe-protocol.js';
import { STATION_NAME } from '../../core/constants.js';
import { HASH_ALGORITHMS } from '../pki/hash-algorithms.js';
import { webEidAlgorithmFor, webEidSignedData } from '../identity/web-eid-auth-token.js';
import { signAuthentication } from '../identity/sign-authentication.js';
import type { UserPrompt } from '../ports/user-prompt.js';
import type { CertificateChoiceRequest } from '../../core/schemas/prompts.js';
import type { Token } from '../tokens/token.js';
import { UserCancelledError } from '../tokens/token-errors.js';
import { RequesterGoneError } from '../sessions/requester-gone-error.js';
import type { PendingSignatures } from '../sessions/pending-signatures.js';
import type { FrameTicket, FrameTickets } from './frame-tickets.js';
import { tokenKindsForMethod } from './token-kinds-for-method.js';
import { IframeHelperError } from './iframe-helper-error.js';
import { signWithPinRetries } from '../tokens/sign-with-pin-retries.js';
import { chooseTokenCertificate, type TokenCertificateCandidate } from '../tokens/choose-token-certificate.js';
import { whileTokenConnected } from '../tokens/while-token-connected.js';

export interface IframeHelperDeps {
  tickets: FrameTickets;
  tokens: () => Promise<Token[]>;
  /** Called after any card, token or reader came or went; returns an unsubscribe function. */
  onTokensChange: (listener: () => void) => () => void;
  /** How long a certificate request waits for the user to insert a card or token (default 60 s). */
  insertTimeoutMs?: number;
  pending: Pick<PendingSignatures, 'findByDocument'>;
  userPrompt: UserPrompt;
  /** The prepared signature of this document will not be made (the token step failed or was cancelled). */
  unsigned?: (clientId: string, docId: string, error: unknown, origin: string) => Promise<void>;
}

interface FrameContext {
  frame: FrameTicket;
  /** The embedding page's origin, one of the client's allowed origins. */
  origin: string;
  signal: AbortSignal;
}

type Candidate = TokenCertificateCandidate;

/**
 * What the iframe page may do on behalf of the page that embeds it: hand out a signing certificate (after the
 * user allows that origin, remembered per origin and client) and sign a digest, but only the digest the station
 * itself prepared for that document at start-signing, where the user consented with the real origin shown. The
 * PIN is asked in the station's own prompt; nothing the embedding page sends is ever signed as it is.
 */
export class IframeHelperService {
  readonly #deps: IframeHelperDeps;
  /** `origin \n clientId` pairs whose certificate reads the user allowed, until the station restarts. */
  readonly #allowedReads = new Set<string>();

  constructor(deps: IframeHelperDeps) {
    this.#deps = deps;
  }

  async certificate(ticket: string, embeddingOrigin: string, signal: AbortSignal): Promise<string> {
    const context = this.#context(ticket, embeddingOrigin, signal);
    const chosen = await this.#choose(context, await this.#candidatesOnceInserted(context, 'signing'), 'sign');
    await this.#whileConnected(chosen.token, context.signal, (whileConnected) => this.#allowRead({ ...context, signal: whileConnected }, chosen.certificate));
    context.frame.chosen = { tokenId: chosen.token.id, certificateId: chosen.certificate.id, certificate: chosen.certificate.certificate };
    return chosen.certificate.certificate;
  }

  /**
   * A Web eID `web-eid:1.0` authentication token for the embedding origin and the identification's nonce, signed
   * with the authentication key after the user agrees in the station's own prompt.
   */
  async authToken(ticket: string, embeddingOrigin: string, nonce: string, signal: AbortSignal): Promise<WebEidAuthToken> {
    const context = this.#context(ticket, embeddingOrigin, signal);
    const { token, certificate } = await this.#choose(context, await this.#candidatesOnceInserted(context, 'authentication'), 'authenticate');
    const { algorithm, hash, scheme } = webEidAlgorithmFor(certificate);
    const digest = new Uint8Array(createHash(HASH_ALGORITHMS[hash].nodeName).update(webEidSignedData(context.origin, nonce, hash)).digest());
    const signature = await this.#whileConnected(token, context.signal, (whileConnected) =>
      signAuthentication(this.#deps.userPrompt, { token, certificate, digest, hashAlgorithm: hash, scheme, requester: context.origin, clientId: context.frame.clientId }, whileConnected),
    );
    return { format: 'web-eid:1.0', unverifiedCertificate: certificate.certificate, algorithm, signature: Buffer.from(signature).toString('base64'), appVersion: `${STATION_NAME} iframe helper` };
  }

  async signature(call: IframeSignatureCall, signal: AbortSignal): Promise<string> {
    const context = this.#context(call.ticket, call.embeddingOrigin, signal);
    const pending = this.#preparedFor(context.frame, call.hexDigest);
    const { token, certificate } = await this.#holderOf(context.frame, Buffer.from(pending.certificate).toString('base64'));
    try {
      const signature = await this.#whileConnected(token, signal, (whileConnected) =>
        signWithPinRetries(token, {
          certificateId: certificate.id,
          hash: new Uint8Array(Buffer.from(call.hexDigest, 'hex')),
          hashAlgorithm: pending.digestAlgorithm,
          // What the signature format prepared for this certificate (RSA-PSS where its key mandates it).
          scheme: pending.signatureScheme,
          purpose: 'sign',
          signal: whileConnected,
          pin: (request) => this.#deps.userPrompt.askPin({ ...request, tokenLabel: token.label, requester: context.origin }, whileConnected),
        }),
      );
      return Buffer.from(signature).toString('base64');
    } catch (error) {
      // A prompt withdrawn because the page went away or cancelled: logged as that, never as the person's refusal.
      const reason = signal.aborted ? new RequesterGoneError() : error;
      await this.#deps.unsigned?.(pending.clientId, pending.docId, reason, context.origin);
      throw reason;
    }
  }

  /**
   * Runs `work` with a signal that also aborts when `token` is pulled out: then it fails with TokenRemovedError at
   * once (the prompts it holds withdrawn), not with whatever the withdrawn prompt or the gone token answered.
   */
  async #whileConnected<T>(token: Token, signal: AbortSignal, work: (whileConnected: AbortSignal) => Promise<T>): Promise<T> {
    const watch = whileTokenConnected(token, this.#deps, signal);
    try {
      return await work(watch.signal);
    } catch (error) {
      throw watch.signal.aborted && !signal.aborted ? watch.signal.reason : error;
    } finally {
      watch.stop();
    }
  }

  #context(ticket: string, embeddingOrigin: string, signal: AbortSignal): FrameContext {
    const frame = this.#deps.tickets.find(ticket);
    if (!frame) throw new IframeHelperError('ERR_IFRAME_TICKET_UNKNOWN', 'This signing page has expired; reload it from the web page.', { status: 401 });
    if (!frame.allowedOrigins.includes(embeddingOrigin)) {
      throw new IframeHelperError('ERR_IFRAME_ORIGIN_FORBIDDEN', `${embeddingOrigin} is not an allowed origin of client ${frame.clientId}.`, { status: 403 });
    }
    return { frame, origin: embeddingOrigin, signal };
  }

  /**
   * The signing certificates present, waiting for the user to insert a card or token when there is none yet: the
   * embedding page asks once, and the answer comes as soon as the station sees the card.
   */
  async #candidatesOnceInserted(context: FrameContext, usage: TokenCertificate['usage']): Promise<Candidate[]> {
    const deadline = performance.now() + (this.#deps.insertTimeoutMs ?? 60_000);
    for (;;) {
      // Listening starts before the tokens are read, so a card inserted meanwhile is not missed.
      const change = this.#nextTokenChange(context.signal, deadline);
      try {
        return await this.#candidates(context.frame, usage);
      } catch (error) {
        if (!(error instanceof IframeHelperError) || error.code !== 'ERR_IFRAME_NO_CERTIFICATE' || !(await change.changed)) throw error;
      } finally {
        change.stop();
      }
    }
  }

  /** `changed` resolves true at the next token change, false at the deadline or when the requester has gone. */
  #nextTokenChange(signal: AbortSignal, deadline: number): { changed: Promise<boolean>; stop(): void } {
    let stop!: () => void;
    const changed = new Promise<boolean>((resolve) => {
      const finish = (result: boolean): void => {
        unsubscribe();
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        resolve(result);
      };
      const aborted = (): void => finish(false);
      const unsubscribe = this.#deps.onTokensChange(() => finish(true));
      const timer = setTimeout(() => finish(false), Math.max(0, deadline - performance.now()));
      stop = () => finish(false);
      if (signal.aborted) finish(false);
      else signal.addEventListener('abort', aborted, { once: true });
    });
    return { changed, stop };
  }

  async #candidates(frame: FrameTicket, usage: TokenCertificate['usage']): Promise<Candidate[]> {
    const kinds = tokenKindsForMethod(frame.method);
    const tokens = (await this.#deps.tokens()).filter((token) => kinds.includes(token.kind));
    const lists = await Promise.all(
      tokens.map(async (token) => {
        try {
          return (await token.listCertificates()).filter((c) => c.usage === usage && c.valid).map((certificate) => ({ token, certificate }));
        } catch {
          return []; // a token removed while being read offers nothing
        }
      }),
    );
    const candidates = lists.flat();
    if (candidates.length === 0) {
      throw new IframeHelperError('ERR_IFRAME_NO_CERTIFICATE', `No card, token or store with a valid ${usage} certificate is connected. Insert it and try again.`, {
        status: 409,
        retriable: true,
      });
    }
    return candidates;
  }

  #choose(context: FrameContext, candidates: Candidate[], purpose: CertificateChoiceRequest['purpose']): Promise<Candidate> {
    return chooseTokenCertificate(this.#deps.userPrompt, { requester: context.origin, purpose }, candidates, context.signal);
  }

  async #allowRead(context: FrameContext, certificate: TokenCertificate): Promise<void> {
    const key = `${context.origin}\n${context.frame.clientId}`;
    if (this.#allowedReads.has(key)) return;
    const agreed = await this.#deps.userPrompt.confirm(
      {
        purpose: 'read-certificate',
        requester: context.origin,
        clientId: context.frame.clientId,
        signerSubject: certificate.subject,
        signerIssuer: certificate.issuer,
        signerSerialNumber: certificate.serialNumber,
      },
      context.signal,
    );
    if (!agreed) throw new UserCancelledError();
    this.#allowedReads.add(key);
  }

  /** The document's pending signature, when `hexDigest` is exactly the digest the station handed out for it. */
  #preparedFor(frame: FrameTicket, hexDigest: string): NonNullable<ReturnType<PendingSignatures['findByDocument']>> {
    const pending = frame.docId ? this.#deps.pending.findByDocument(frame.clientId, frame.docId) : undefined;
    if (!pending || pending.method !== frame.method || pending.dataToSignDigest.toLowerCase() !== hexDigest.toLowerCase()) {
      throw new IframeHelperError('ERR_IFRAME_DIGEST_UNKNOWN', 'This is not the digest the station prepared for this document: start the signature again.', { status: 409 });
    }
    return pending;
  }

  /** The token holding `certificate` (base64), preferring the one this page handed out. */
  async #holderOf(frame: FrameTicket, certificate: string): Promise<Candidate> {
    const candidates = await this.#candidates(frame, 'signing');
    const holder =
      candidates.find((c) => c.token.id === frame.chosen?.tokenId && c.certificate.certificate === certificate) ??
      candidates.find((c) => c.certificate.certificate === certificate);
    if (!holder) {
      throw new IframeHelperError('ERR_IFRAME_CERTIFICATE_ABSENT', 'The card or token with the certificate this signature was started with is not connected. Insert it and try again.', {
        status: 409,
        retriable: true,
      });
    }
    return holder;
  }
}
