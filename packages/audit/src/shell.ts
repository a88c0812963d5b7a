// The commands messages suggest are pasted into a shell by someone on call, and the values in
// them come from KEB and the edge: every value is quoted here, and a value no quoting can carry
// safely into every channel leaves its command out.
//
// Not `shell-quote` (npm), which seems to fit: its `quote` escapes with backslashes inside double
// quotes, which is harder to read back by eye than single quotes, and it had a command injection
// in that very function (CVE-2021-42740). POSIX single quotes are one rule: nothing inside them
// is special, and a `'` is written `'\''`.

// A word of only these needs no quotes: no shell expands, splits or globs any of them.
const BARE = /^[\w@%+=:,./-]+$/;

/**
 * What no suggested command may hold: control characters and line breaks (a pasted line break
 * runs what follows it, and the channels flatten it differently, so the command would match
 * something else), bidirectional overrides and isolates (the command would read otherwise than it
 * runs), and the backtick (Slack's code spans, where Chatbot and Slack show commands, have no way
 * to hold one, and a look-alike would change the value).
 */
const UNPASTABLE = /[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069`]/u;

/** True when a value can stand in a command shown in every channel, quoted, unchanged. */
export function pastable(value: string): boolean {
  return !UNPASTABLE.test(value);
}

/**
 * One shell word that gives back `word` exactly in a POSIX shell: bare when it needs no quoting,
 * else in single quotes with each `'` written `'\''`; `''` for the empty word.
 *
 * @example shellQuote("a'b;$(id)") // 'a'\''b;$(id)'
 */
export function shellQuote(word: string): string {
  return BARE.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `--flag value`, or `--flag=value` when the value starts with a dash (else it reads as a flag). */
export function shellOption(flag: string, value: string): string {
  return value.startsWith("-") ? `${flag}=${shellQuote(value)}` : `${flag} ${shellQuote(value)}`;
}
