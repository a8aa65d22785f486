/**
 * The user's choice if they made one and it is available, else the first of their preferred languages (the browser's,
 * the OS's) we have, by base language ("et-EE" is "et"), else the fallback.
 */
export function pickLanguage<L extends string>(available: readonly L[], preferred: readonly string[], stored: string | null, fallback: L): L {
  const has = (tag: string): tag is L => (available as readonly string[]).includes(tag);
  if (stored && has(stored)) return stored;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0]!;
    if (has(base)) return base;
  }
  return fallback;
}
