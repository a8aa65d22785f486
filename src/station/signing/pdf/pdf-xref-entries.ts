export type XrefEntry = { kind: 'offset'; offset: number } | { kind: 'compressed'; stream: number } | { kind: 'free' };

const FREE = 1;
const OFFSET = 2;
const COMPRESSED = 3;

/**
 * Where each object of a PDF is, by object number: nine bytes per number in two typed arrays instead of an object
 * and a map entry per object, so a file listing millions of objects costs little more than the list itself.
 */
export class PdfXrefEntries {
  #kinds = new Uint8Array(0);
  /** The file offset, or the number of the object stream holding the object. */
  #where = new Float64Array(0);

  constructor(private readonly maxNumber: number) {}

  has(num: number): boolean {
    return this.#kinds[num] !== undefined && this.#kinds[num] !== 0;
  }

  get(num: number): XrefEntry | undefined {
    const kind = this.#kinds[num];
    if (kind === FREE) return { kind: 'free' };
    if (kind === OFFSET) return { kind: 'offset', offset: this.#where[num]! };
    if (kind === COMPRESSED) return { kind: 'compressed', stream: this.#where[num]! };
    return undefined;
  }

  set(num: number, entry: XrefEntry): void {
    if (!Number.isSafeInteger(num) || num < 0 || num > this.maxNumber) throw new RangeError(`object number ${num} out of range`);
    if (num >= this.#kinds.length) this.#grow(num + 1);
    this.#kinds[num] = entry.kind === 'free' ? FREE : entry.kind === 'offset' ? OFFSET : COMPRESSED;
    this.#where[num] = entry.kind === 'offset' ? entry.offset : entry.kind === 'compressed' ? entry.stream : 0;
  }

  /** Numbers that have an entry, ascending. */
  *keys(): Generator<number> {
    for (let num = 0; num < this.#kinds.length; num++) if (this.#kinds[num] !== 0) yield num;
  }

  #grow(needed: number): void {
    const length = Math.max(needed, Math.min(2 * this.#kinds.length, this.maxNumber + 1));
    const kinds = new Uint8Array(length);
    kinds.set(this.#kinds);
    const where = new Float64Array(length);
    where.set(this.#where);
    this.#kinds = kinds;
    this.#where = where;
  }
}
