/** The "Examples:" block every command's help ends with: commands people can copy. */
export function helpExamples(...commands: string[]): string {
  return `\nExample${commands.length > 1 ? 's' : ''}:\n${commands.map((command) => `  signing-station ${command}`).join('\n')}`;
}
