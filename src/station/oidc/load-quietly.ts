import type { Logger } from 'pino';

/**
 * Imports a module whose dependencies print notices with console.warn when loaded (oidc-provider warns about the
 * Node release on import): those lines go to the station's structured log instead of raw stderr, where the CLI
 * promises JSON log lines only. Anything else printed meanwhile passes through unchanged.
 */
export async function loadQuietly<T>(load: () => Promise<T>, logger: Logger, prefix: string): Promise<T> {
  const original = console.warn;
  console.warn = (...args: unknown[]) => {
    const text = args.map(String).join(' ');
    if (text.startsWith(prefix)) logger.warn({ component: prefix.trim() }, text);
    else original(...args);
  };
  try {
    return await load();
  } finally {
    console.warn = original;
  }
}
