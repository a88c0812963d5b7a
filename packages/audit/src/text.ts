// Text from KEB or a user goes into e-mail and Slack: these make it safe for each, and short.

/** A field longer than this is cut: one runtime must never blow a message's size budget. */
const MAX_FIELD = 600;

// What `oneLine` changes: a control or separator character, whitespace other than a space, two
// spaces together, a space at either end.
const NOT_ONE_LINE = /[\p{Cc}\p{Zl}\p{Zp}]|[^\S ]| {2}|^ | $/u;

/**
 * One line of plain text: control characters and line breaks become spaces, so no text from KEB
 * can forge a line of the e-mail; cut on a code point boundary, the cut marked with `…`.
 */
export function oneLine(text: string, max = MAX_FIELD): string {
  // Most text (every label of every runtime on every page) is already one line and short: a
  // runtime is classified on each run, so this is the path that must be cheap. UTF-16 units are
  // never fewer than code points.
  if (text.length <= max && !NOT_ONE_LINE.test(text)) return text;
  const flat = text
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (flat.length <= max) return flat;
  const points = Array.from(flat);
  return points.length <= max ? flat : `${points.slice(0, max - 1).join("")}…`;
}

// `&`, `<` and `>` as Slack asks (no mention, link or user reference can be opened), and the
// backtick as a look-alike, since Slack has no escape for it (no code span opened or left open).
const escapeMarkup = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/`/g, "ˋ");

// Slack's mrkdwn has no escape for its formatting characters either. Look-alikes (∗ U+2217,
// ∼ U+223C, ˍ U+02CD) are certain to show as written, as the backtick's is; a zero-width joiner
// beside the character is not documented to stop formatting. An underscore between two letters
// or digits (`err_keb_timeout`) can neither open nor close italics and stays as it is, so that
// reasons read and search as KEB spells them.
const FORMATTING = /[*~]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
const LOOK_ALIKE: Readonly<Record<string, string>> = { "*": "∗", "~": "∼", _: "ˍ" };

/**
 * Text for Slack markup (`mrkdwn`, which Chatbot's `client-markdown` is): one line, cut first,
 * then `&`, `<`, `>` escaped, so that no mention (`<!channel>`), link or user reference can be
 * injected, backticks replaced so that no code span can be opened or left open, and `*`, `~` and
 * a `_` that could delimit replaced by look-alikes, so that no bold, strike or italics can be.
 */
export function slackText(text: string, max = MAX_FIELD): string {
  return escapeMarkup(oneLine(text, max)).replace(FORMATTING, (c) => LOOK_ALIKE[c] ?? c);
}

/**
 * Slack text as inline code: one line, cut, escaped; formatting characters (`*`, `_`, `~`) inside
 * a code span are not applied, so they stay as they are.
 */
export function slackCode(text: string, max = MAX_FIELD): string {
  const inner = escapeMarkup(oneLine(text, max));
  return inner === "" ? "" : `\`${inner}\``;
}

/**
 * A suggested command (`commands.ts`) as inline code, whole: a cut command would run something
 * else. Commands hold no line break or backtick (`pastable`), so escaping leaves the text that
 * Slack shows, and that pastes, exactly the command.
 */
export function slackCommand(command: string): string {
  return `\`${escapeMarkup(command)}\``;
}

/** A duration for people: `under 1m`, `12m`, `3h 20m`, `2d 4h`; `?` when it cannot be known. */
export function humanDuration(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  const s = Math.max(0, Math.floor(ms / 1000));
  // Ages count from a problem's onset: under a minute is said so, never as "0s"; in words, since
  // a `<` is markup in Slack's and Chatbot's text.
  if (s < 60) return "under 1m";
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d ${h % 24}h` : `${d}d`;
}

/**
 * `2026-11-30 06:00 UTC` from an ISO time; `an unknown time` when it does not parse, never the
 * input (a foreign digest's "time" could be any text) and never a throw.
 */
export function shortTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t)
    ? "an unknown time"
    : `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

// Built on first use, not at import: the first `Intl.NumberFormat` of a process loads ICU's
// number data, about 15 ms of CPU that a cold start of a run with nothing to tell never needs.
let numbers: Intl.NumberFormat | undefined;

/** A count as people read it at 3 a.m.: `20,000`. */
export function formatCount(n: number): string {
  numbers ??= new Intl.NumberFormat("en-US");
  return numbers.format(n);
}

/**
 * `n` and its noun, singular for one: `countOf(1, "runtimes")` → "1 runtime", `countOf(20000,
 * "runtimes")` → "20,000 runtimes". Nouns here are plural; the singular drops one trailing "s"
 * ("refusal kinds" → "refusal kind").
 */
export function countOf(n: number, plural: string): string {
  const noun = n === 1 && plural.endsWith("s") ? plural.slice(0, -1) : plural;
  return `${formatCount(n)} ${noun}`;
}

/** "after 6h", or "in under 1m" (never "after under 1m"): how long something lasted, as a phrase. */
export function lastedFor(age: string): string {
  return age.startsWith("under ") ? `in ${age}` : `after ${age}`;
}
