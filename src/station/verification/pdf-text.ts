/** A PDF text string: UTF-16BE with a byte order mark, else PDFDocEncoding (Latin-1 for the printable range). */
export function pdfText(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  return Buffer.from(bytes).toString('latin1');
}
