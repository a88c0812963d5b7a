import { oneLine } from "@fleet-auditor/audit";

// Every text of the report page that comes from data (a label value, a key, a summary, a
// comment) goes through here, in text and in attributes alike: a shoot named
// `<img src=x onerror=alert(1)>` must show as those characters, never become an element.

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * `&`, `<`, `>`, `"` and `'` as character references: safe in an element's text and in an
 * attribute value in quotes (either kind).
 */
function escapeHtml(text: string): string {
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c) : text;
}
const SPECIAL = /[&<>"']/;

/** Printable ASCII words with single spaces: what `oneLine` leaves as it is (most label values). */
const PLAIN = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/**
 * Text from data for the page: made a string whatever the stored item held, one line (no control
 * character), cut at `max` code points, then escaped.
 */
export function dataText(value: unknown, max = 300): string {
  const text = String(value ?? "");
  // Ten thousand rows hold a hundred thousand texts: the plain ones skip `oneLine`'s work.
  return escapeHtml(text.length <= max && PLAIN.test(text) ? text : oneLine(text, max));
}
