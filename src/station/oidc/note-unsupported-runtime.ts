import type { Logger } from 'pino';

/** The oldest Node line the station and oidc-provider support (package.json engines). */
const OLDEST_SUPPORTED_MAJOR = 22;
let noted = false;

/**
 * On an older Node, oidc-provider prints one plain "Unsupported runtime" warning on stderr when it is first loaded.
 * The station leaves the library's output as it is and says the same in its own log, where operators look: once
 * per process, as the library does.
 */
export function noteUnsupportedRuntime(logger: Logger, nodeVersion: string = process.versions.node): void {
  const major = Number(nodeVersion.split('.')[0]);
  if (major >= OLDEST_SUPPORTED_MAJOR || noted) return;
  noted = true;
  logger.warn({ nodeVersion }, `Node ${nodeVersion} is not supported (end of life): run the station on Node ${OLDEST_SUPPORTED_MAJOR} or 24`);
}
