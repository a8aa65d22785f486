/** The credential of an `Authorization: Bearer <credential>` header, or undefined. */
export function readBearerCredential(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9_-]{16,128})$/.exec(header ?? '');
  return match?.[1];
}
