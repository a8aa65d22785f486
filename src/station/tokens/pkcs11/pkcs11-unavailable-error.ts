import { TokenError } from '../token-errors.js';

/** What pkcs11js's native build needs, per OS. */
function buildTools(platform: NodeJS.Platform): string {
  switch (platform) {
    case 'linux':
      return 'Python 3, make and a C++ compiler (Debian/Ubuntu: apt install python3 make g++; Fedora: dnf install python3 make gcc-c++)';
    case 'darwin':
      return "Xcode's command line tools (xcode-select --install)";
    case 'win32':
      return 'Python 3 and the Visual Studio Build Tools with the C++ workload';
    default:
      return 'Python 3, make and a C++ compiler';
  }
}

/**
 * pkcs11js, the PKCS#11 binding, could not be loaded: it is an optional dependency, and its native build fails at
 * install on a machine without a C++ toolchain. Tokens and cards through PKCS#11 are unavailable until it is built;
 * everything else in the station works. Permanent until something is installed, so nothing retries it.
 */
export class Pkcs11UnavailableError extends TokenError {
  constructor(cause: unknown, platform: NodeJS.Platform = process.platform) {
    const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    super('ERR_PKCS11_UNAVAILABLE', `PKCS#11 is unavailable: the pkcs11js module could not be loaded (${reason}). Its native part is built at install, which needs ${buildTools(platform)}; install them, run \`npm install\` again and restart the station.`, {
      status: 503,
      retriable: false,
      details: { module: 'pkcs11js' },
      cause,
    });
  }
}
