import type { DigestContext, PlannedGroup, Severity, Transition } from "@fleet-auditor/audit";
import { fitTitle, type TitlePart } from "./title/fit-title.ts";
import { planTitleSource } from "./title/plan-title.ts";
import { titleParts } from "./title/title-parts.ts";

// The e-mail subject of a digest: its title (`title-parts.ts`) in printable ASCII within 99
// characters, `[fleet-auditor]` last, fitted as every title is (`fitTitle`).

/** SNS refuses a subject of 100 characters or more. */
const SUBJECT_MAX = 99;
/** What Chatbot's title shows of a title (its notification's `title` and `summary`). */
const CHAT_TITLE_MAX = 250;

/** A digest's titles: the e-mail subject (also the structured digest's) and Chatbot's title. */
export interface DigestTitles {
  subject: string;
  chat: string;
}

/**
 * A digest's titles: `failed (err_quota) in eu-1: 30 new runtimes | prod-eu | CRITICAL | failing
 * audit [fleet-auditor]`, the incident's values first and what happened with numbers; one
 * transition is named as its presenter says (state and reason first). The subject is printable
 * ASCII within 99 characters; Chatbot's has no `[fleet-auditor]` and `CHAT_TITLE_MAX`. When a title
 * must be cut, decorations go first, never the reason before them (`fitTitle`).
 */
export function digestTitles(
  ctx: DigestContext,
  groups: readonly PlannedGroup[],
  severity: Severity,
  transitions: readonly Transition[],
  /** Counts even for one transition: the titles of a digest that names none. */
  options: { countsOnly?: boolean } = {},
): DigestTitles {
  const source = planTitleSource(ctx, groups, transitions, severity, options);
  return {
    subject: asciiTitle(titleParts(source, { tag: true })),
    chat: fitTitle(titleParts(source), { max: CHAT_TITLE_MAX, ellipsis: "…" }),
  };
}

/** Parts as an ASCII subject within 99 characters. */
function asciiTitle(parts: readonly TitlePart[]): string {
  const ascii = parts.map((p) => ({ ...p, text: toAscii(p.text), sep: toAscii(p.sep) }));
  return fitTitle(ascii, { max: SUBJECT_MAX, ellipsis: "..." });
}

// What NFKD does not take to ASCII, spelled out rather than dropped.
const TRANSLITERATIONS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    ß: "ss",
    æ: "ae",
    Æ: "AE",
    ø: "o",
    Ø: "O",
    œ: "oe",
    Œ: "OE",
    ł: "l",
    Ł: "L",
    đ: "d",
    Đ: "D",
    þ: "th",
    Þ: "Th",
    "→": "->",
    "←": "<-",
    "–": "-",
    "—": "-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "…": "...",
    "×": "x",
    "·": "/",
  }),
);

/** Printable ASCII, transliterated, whitespace folded (what NFKD and the table cannot spell is `?`). */
function toAscii(text: string): string {
  return Array.from(text.normalize("NFKD").replace(/\p{M}+/gu, ""))
    .map((c) => TRANSLITERATIONS.get(c) ?? c)
    .join("")
    .replace(/[\p{Cc}\s]+/gu, " ")
    .replace(/[^\x20-\x7e]/g, "?")
    .replace(/ +/g, " ");
}

/** Printable ASCII, transliterated, whitespace folded, cut to 99 characters (the suffix kept whole). */
export function asciiSubject(raw: string, suffix = ""): string {
  const tail = suffix ? ` ${toAscii(suffix).trim()}` : "";
  const head = toAscii(raw).trim();
  const room = SUBJECT_MAX - tail.length;
  return `${head.length <= room ? head : `${head.slice(0, room - 3)}...`}${tail}`;
}
