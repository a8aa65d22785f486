// Small hand-made PDFs with one hostile trait each, for the reader's bounds (fuzz seeds and regression tests).

/** A PDF whose objects are `bodies` (object 1..n), with a correct classic cross-reference table. */
export function pdfWithObjects(bodies: readonly (string | Buffer)[], trailerExtra = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  bodies.forEach((body, index) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'), Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [`xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`, ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** The findings of a security review of the PDF reader, each as the smallest file that showed it. */
export const HOSTILE_PDFS = {
  /** ~400 KB of tiny hex strings: each one used to copy the whole input (quadratic). */
  manyHexStrings: (): Buffer => pdfWithObjects([`[${'<41> '.repeat(80_000)}]`]),
  /** A stream whose /Length is its own object: used to recurse until the process ran out of memory. */
  selfReferencingLength: (): Buffer => pdfWithObjects(['<< /Type /Catalog /Length 1 0 R >>\nstream\nabc\nendstream']),
  /** A 340-byte file announcing a billion cross-reference entries. */
  hugeXrefSubsection: (): Buffer => {
    const body = '%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n';
    return Buffer.from(`${body}xref\n0 999999999\n0000000000 65535 f \ntrailer\n<< /Size 2 /Root 1 0 R >>\nstartxref\n${body.length}\n%%EOF\n`);
  },
  /** A cross-reference stream whose /Index announces a billion rows it does not hold. */
  hugeXrefStreamIndex: (): Buffer => {
    const head = '%PDF-1.7\n';
    const object = `1 0 obj\n<< /Type /XRef /Size 2 /Root 1 0 R /W [1 4 2] /Index [0 1000000000] /Length 7 >>\nstream\n\x01\x00\x00\x00\x09\x00\x00\nendstream\nendobj\n`;
    return Buffer.from(`${head}${object}startxref\n${head.length}\n%%EOF\n`, 'latin1');
  },
  /** Found by fuzzing: a cross-reference entry whose offset is not a number (used to throw a RangeError). */
  garbageXrefOffset: (): Buffer => {
    const good = pdfWithObjects(['<< /Type /Catalog >>']).toString('latin1');
    return Buffer.from(good.replace(/\n(\d{10}) 00000 n /, '\n00000x0009 00000 n '), 'latin1');
  },
  /** One array of more values than one object may hold (3 MB of hex strings, each of which used to cost ~530 bytes). */
  overfullObject: (): Buffer => pdfWithObjects([`[${'<41> '.repeat(600_000)}]`]),
  /** Arrays nested 100 000 deep: used to overflow the stack into a 500. */
  deepNesting: (): Buffer => pdfWithObjects([`${'['.repeat(100_000)}${']'.repeat(100_000)}`]),
} as const;
