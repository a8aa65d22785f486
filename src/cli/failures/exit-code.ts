/**
 * The command's exit codes, documented in docs/cli.md#exit-codes. Scripts branch on them: 1 means "the answer is no" (a
 * signature is invalid, the PIN was wrong, the user declined), 2 means "you called it wrongly" (commander's own
 * code for usage errors), 3 means "try again when the station's parts are there" (keychain, pcscd, token, port).
 */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  unavailable: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
