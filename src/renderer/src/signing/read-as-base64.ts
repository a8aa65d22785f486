/** A picked or dropped file's bytes as base64, read in slices so a large file never becomes one huge string of code points. */
export async function readAsBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const SLICE = 0x8000;
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += SLICE) binary += String.fromCharCode(...bytes.subarray(offset, offset + SLICE));
  return btoa(binary);
}
