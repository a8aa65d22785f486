/**
 * The n-th name tried for a file that must never replace another: `stem + extension` first, then
 * `stem (2) + extension` and so on, the rule every output of the station follows (CLI and window alike).
 */
export function numberedFileName(stem: string, extension: string, n: number): string {
  return n === 1 ? `${stem}${extension}` : `${stem} (${n})${extension}`;
}
