/**
 * The command's exit codes, documented in docs/cli.md#exit-codes. Scripts branch on them: 1 means "the answer is
 * no" (a signature failed, the PIN was wrong, the user declined), 2 means "you called it wrongly" (commander's own
 * code for usage errors), 3 means "try again when the station's parts are there" (keychain, pcscd, token, port),
 * 4 means "`verify` could not decide": a signature is indeterminate (issuer unknown here, time unproven), none failed.
 */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  unavailable: 3,
  indeterminate: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
