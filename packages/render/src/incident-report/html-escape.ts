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
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/**
 * Text from data for the page: made a string whatever the stored item held, one line (no control
 * character), cut at `max` code points, then escaped.
 */
export function dataText(value: unknown, max = 300): string {
  return escapeHtml(oneLine(String(value ?? ""), max));
}
