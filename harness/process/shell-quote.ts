// Pure: POSIX shell quoting, the one definition. A word made only of
// characters no shell treats specially stays as it is; any other word is
// single-quoted (a ' inside becomes '\''), so a shell reads it back unchanged.
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./{}-]+$/;

export function shellWord(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** One argv as a line a shell reads back as the same words. */
export function shellLine(argv: readonly string[]): string {
  return argv.map(shellWord).join(' ');
}
