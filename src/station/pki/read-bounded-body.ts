/**
 * A fetched body read only up to `maxBytes` (the declared length checked first, then what arrives): a server that
 * sends more is cut off, never buffered whole. Undefined when it is over the bound.
 */
export async function readBoundedBody(response: Response, maxBytes: number): Promise<Buffer | undefined> {
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
    length += read.value.length;
    if (length > maxBytes) {
      await reader!.cancel();
      return undefined;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks);
}
