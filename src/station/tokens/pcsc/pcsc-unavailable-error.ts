import { TokenError } from '../token-errors.js';

/** What to install for PC/SC, per OS: the run-time library and service, and the headers the native build needs. */
function installAdvice(platform: NodeJS.Platform): string {
  switch (platform) {
    case 'linux':
      return (
        'Install pcsc-lite (Debian/Ubuntu: apt install libpcsclite1 pcscd libpcsclite-dev; ' +
        'Fedora: dnf install pcsc-lite pcsc-lite-devel), then run `npm install` again (it builds the smartcard module the first install skipped) and restart the station.'
      );
    case 'darwin':
    case 'win32':
      return 'PC/SC is built into this OS: reinstall the station (`npm install`, which needs the C++ build tools) and restart it.';
    default:
      return 'Install pcsc-lite and its headers, then run `npm install` again (it builds the smartcard module the first install skipped) and restart the station.';
  }
}

/**
 * The PC/SC module could not be loaded: its native build was skipped at install (no pcsc-lite headers) or
 * pcsc-lite is missing at run time. Permanent until something is installed, so the watcher does not retry.
 */
export class PcscUnavailableError extends TokenError {
  constructor(specifier: string, cause: unknown, platform: NodeJS.Platform = process.platform) {
    const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    super('ERR_PCSC_UNAVAILABLE', `PC/SC is unavailable: the ${specifier} module could not be loaded (${reason}). ${installAdvice(platform)}`, {
      status: 503,
      retriable: false,
      details: { module: specifier },
      cause,
    });
  }
}
