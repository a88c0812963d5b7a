import { execFileSync } from "node:child_process";

// Reading a suggested command back as a POSIX shell would, to prove what pasting it runs.

/** Thrown when a command holds shell syntax outside quotes (what pasting it would run or redirect). */
class UnquotedShellSyntax extends Error {}

// Outside quotes these split, chain, redirect, expand or substitute; none belongs in a word.
const SPECIAL = new Set([
  ";",
  "&",
  "|",
  "<",
  ">",
  "(",
  ")",
  "$",
  "`",
  "\\",
  "\n",
  "\r",
  "*",
  "?",
  "[",
  "#",
  "~",
]);
// Inside double quotes only these expand; `"$USER"` (the silence's author) is the one expansion allowed.
const DOUBLE_SPECIAL = new Set(["$", "`", "\\"]);

/**
 * The words of a command as a POSIX shell splits them (single quotes, double quotes, backslash
 * escapes, blanks),
 * refusing any shell syntax outside quotes and any expansion inside double quotes but `$USER`,
 * which it keeps as written. A small parser rather than a shell: the commands under test carry
 * hostile IDs (`$(rm -rf ~)`), and a test must never run one if quoting regresses.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (c === " " || c === "\t") {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new UnquotedShellSyntax(`unclosed ' at ${i} in ${command}`);
      word = (word ?? "") + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      const end = command.indexOf('"', i + 1);
      if (end < 0) throw new UnquotedShellSyntax(`unclosed " at ${i} in ${command}`);
      const inner = command.slice(i + 1, end);
      if (inner !== "$USER" && [...inner].some((x) => DOUBLE_SPECIAL.has(x)))
        throw new UnquotedShellSyntax(`expansion inside "${inner}" in ${command}`);
      word = (word ?? "") + inner;
      i = end;
    } else if (c === "\\" && i + 1 < command.length && command[i + 1] !== "\n") {
      // Outside quotes a backslash makes the next character literal (`'\''` writes a quote).
      word = (word ?? "") + command[i + 1];
      i++;
    } else if (SPECIAL.has(c) || /[\p{Cc}]/u.test(c)) {
      throw new UnquotedShellSyntax(`unquoted ${JSON.stringify(c)} at ${i} in ${command}`);
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * The words a real POSIX shell (`/bin/sh`) makes of a command, without running it: the command's
 * words become `set --` arguments, printed one per line with `$USER` set to `someone`. Only for
 * harmless payloads: a regression in quoting would run what the value holds.
 */
export function shWords(command: string): string[] {
  const out = execFileSync("/bin/sh", ["-c", `set -- ${command}\nprintf '%s\\0' "$@"`], {
    env: { PATH: "/usr/bin:/bin", USER: "someone" },
    encoding: "utf8",
  });
  return out.split("\0").slice(0, -1);
}
