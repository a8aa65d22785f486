import { timingSafeEqual } from 'node:crypto';

interface Batch {
  clientId: string;
  docIds: readonly string[];
  /** Set once the user agreed to the whole batch: with this certificate, asked by this origin. */
  agreed?: { certificate: Uint8Array; origin: string | undefined };
  /** Documents of an agreed batch that may still start without a prompt; each may do so once. */
  waiving: Set<string>;
}

/**
 * Documents the window signs one after another as separate signatures, under one consent: the first signature's
 * prompt lists every document of the batch, and once the user agreed, each other document starts once without a
 * prompt, with the same certificate and from the same origin. Anything else (another certificate, another page, a
 * second start of the same document, a declined batch) is asked again as usual.
 */
export class ConsentBatches {
  readonly #byDocument = new Map<string, Batch>();

  add(clientId: string, docIds: readonly string[]): void {
    const batch: Batch = { clientId, docIds: [...docIds], waiving: new Set() };
    for (const docId of docIds) this.#byDocument.set(key(clientId, docId), batch);
  }

  /** The batch's documents in order when `docId` is in one, else just `docId`. */
  documentsWith(clientId: string, docId: string): readonly string[] {
    return this.#byDocument.get(key(clientId, docId))?.docIds ?? [docId];
  }

  /** True (once per document) when the batch was agreed to with this certificate from this origin. */
  takeAgreement(clientId: string, docId: string, certificate: Uint8Array, origin: string | undefined): boolean {
    const batch = this.#byDocument.get(key(clientId, docId));
    if (!batch?.agreed || batch.agreed.origin !== origin || !sameBytes(batch.agreed.certificate, certificate)) return false;
    const waived = batch.waiving.delete(docId);
    if (batch.waiving.size === 0) this.#forget(batch);
    return waived;
  }

  /** The user answered the prompt that listed the batch: agreed, the other documents follow; declined, it ends. */
  answered(clientId: string, docId: string, certificate: Uint8Array, origin: string | undefined, agreed: boolean): void {
    const batch = this.#byDocument.get(key(clientId, docId));
    if (!batch) return;
    if (!agreed) {
      this.#forget(batch);
      return;
    }
    batch.agreed = { certificate, origin };
    batch.waiving = new Set(batch.docIds.filter((other) => other !== docId));
  }

  #forget(batch: Batch): void {
    for (const docId of batch.docIds) this.#byDocument.delete(key(batch.clientId, docId));
  }
}

const key = (clientId: string, docId: string): string => `${clientId}\0${docId}`;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
