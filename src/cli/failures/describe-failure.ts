import { CommanderError } from 'commander';
import { isStationError, type StationError, type StationErrorCode } from '../../core/errors/station-error.js';
import { ExitCode } from './exit-code.js';

/** Codes that mean a part of the station is missing or busy, not that the request was wrong: exit 3. */
const UNAVAILABLE_CODES: ReadonlySet<StationErrorCode> = new Set<StationErrorCode>([
  'ERR_KEYCHAIN_UNAVAILABLE',
  'ERR_PCSC_SERVICE_NOT_RUNNING',
  'ERR_TOKEN_NOT_FOUND',
  'ERR_TOKEN_REMOVED',
  'ERR_TOKEN_UNAVAILABLE',
  'ERR_TOKEN_MODULE_NOT_FOUND',
  'ERR_SERVER_PORT_IN_USE',
  'ERR_STORE_IN_USE',
  'ERR_CONFIG_DATA_DIR_UNWRITABLE',
  'ERR_TSA_CLIENT_UNREACHABLE',
]);

/** Codes of a command called wrongly: exit 2. */
const USAGE_CODES: ReadonlySet<StationErrorCode> = new Set<StationErrorCode>([
  'ERR_INPUT_INVALID',
  'ERR_CONFIG_INVALID',
  'ERR_CONFIG_UNREADABLE',
  'ERR_SERVER_PORT_FORBIDDEN',
  // `--page` beyond the document, `--rect` outside the visible page or too small for the text.
  'ERR_SIGNING_INVALID_PLACEMENT',
]);

/** Plain words for the file-system failures a user causes by naming a wrong path. */
const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'does not exist',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'is not inside a directory (a part of the path is a file)',
  EACCES: 'is not accessible (permission denied)',
  EPERM: 'is not accessible (operation not permitted)',
  EROFS: 'is on a read-only file system',
  ENOSPC: 'cannot be written: the disk is full',
};

export interface Failure {
  /** One line for stderr, without the program name; empty when commander already printed its own message. */
  message: string;
  exitCode: ExitCode;
}

/**
 * Turns anything a command throws into one sentence with a stable code and an exit code: the only place the CLI
 * maps failures, so no stack trace ever reaches a user (set SIGNING_STATION_DEBUG=1 to see one).
 */
export function describeFailure(error: unknown): Failure {
  if (error instanceof CommanderError) return describeCommanderError(error);
  if (isStationError(error)) return { message: `${error.message} (${error.code})`, exitCode: exitCodeOf(error) };
  const errno = error as NodeJS.ErrnoException;
  if (typeof errno?.code === 'string' && errno.code in FILE_ERRORS && typeof errno.path === 'string') {
    return { message: `${errno.path} ${FILE_ERRORS[errno.code]} (ERR_FILE_${errno.code.slice(1)})`, exitCode: ExitCode.failed };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { message: `internal error: ${text}. Please report it, with what you ran (ERR_INTERNAL)`, exitCode: ExitCode.failed };
}

function describeCommanderError(error: CommanderError): Failure {
  // --help and --version print and succeed; everything else commander reports is a usage error it already printed.
  const succeeded = error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0;
  return { message: '', exitCode: succeeded ? ExitCode.ok : ExitCode.usage };
}

function exitCodeOf(error: StationError): ExitCode {
  // The keychain's code covers a wrong passphrase too, marked not retriable: that is a refusal, not an absence.
  const refusedByKeychain = error.code === 'ERR_KEYCHAIN_UNAVAILABLE' && !error.retriable;
  if (UNAVAILABLE_CODES.has(error.code) && !refusedByKeychain) return ExitCode.unavailable;
  if (USAGE_CODES.has(error.code)) return ExitCode.usage;
  return ExitCode.failed;
}
