import type { Finding } from "./finding.ts";
import type { Presenter } from "./presenter.ts";

/**
 * URL templates for links in messages. Placeholders are a finding's labels (`{region}`,
 * `{reason}`, `{instance}`, `{node}`…), the names templates used before labels (`{instanceID}`,
 * `{shootName}`, `{key}`…, as the audit's presenter gives them) and `{runId}`; values are
 * URL-encoded. A template whose placeholder has no value gives no link, and so does one whose URL
 * is not a `safeLink`.
 */
export interface LinkTemplates {
  /** A finding's console or dashboard page, e.g. `https://dash.example/runtimes/{instance}`. */
  runtime?: string;
  /** The runbook of an error reason, e.g. `https://wiki.example/runbooks/{reason}`. */
  runbook?: string;
  /** The run report, e.g. a console page that runs `{ "show": "{runId}" }`. */
  report?: string;
}

const PLACEHOLDER = /\{(\w+)\}/g;
// In a `u` pattern a pair is one code point: this matches only a lone half, which has no UTF-8.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * A link every channel can carry as it is: `https:`, printable ASCII, and none of `<`, `>` and `|`,
 * which would end Slack's `<url|text>` early and let the rest of the URL be shown as its text
 * (a link disguised as another). The structured digest's schema holds its links to it too.
 */
export const SAFE_LINK = /^https:\/\/[!-;=?-{}~]+$/;

/** True when `url` is a `SAFE_LINK`. */
export function safeLink(url: string): boolean {
  return SAFE_LINK.test(url);
}

/**
 * Fills a template; undefined when it is absent, a placeholder it uses has no value (or a value
 * no URL can carry: `.` and `..` are path steps, a lone surrogate has no UTF-8), or the result is
 * not a `safeLink` once normalised (an IDN host in punycode, the path percent-encoded).
 */
export function fillTemplate(
  template: string | undefined,
  values: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (!template) return undefined;
  let missing = false;
  const filled = template.replace(PLACEHOLDER, (_, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (!value || value === "." || value === ".." || LONE_SURROGATE.test(value)) {
      missing = true;
      return "";
    }
    return encodeURIComponent(value);
  });
  const parsed = missing ? undefined : parsedUrl(filled);
  if (!parsed) return undefined;
  const url = parsed.href;
  return safeLink(url) ? url : undefined;
}

/**
 * True when a template can give a link at all: with every placeholder filled, it is a `safeLink`
 * once normalised. A template that never can (`http:`, a `<` in it) would give no link in silence,
 * so configuration refuses it: the functions' variables and the deploy's stage settings alike.
 */
export function templateCanLink(template: string): boolean {
  const parsed = parsedUrl(template.replace(PLACEHOLDER, "x"));
  return parsed !== undefined && safeLink(parsed.href);
}

// A reason that reads as a code (`err_keb_timeout`, `CrashLoopBackOff`, `ETIMEDOUT`) can name a
// runbook page; free text ("etcdserver: request timed out") would make a slug no page has.
const CODE = /^[A-Za-z][\w.-]{0,79}$/;

/** True when a reason is a code, not free text: only a code fills a link template's `{reason}`. */
function isCode(reason: string): boolean {
  return CODE.test(reason);
}

/**
 * The template values of a finding: its labels, and the names its presenter keeps for templates;
 * `reason` only when it is a code (`isCode`), so that a template naming it gives no link for free
 * text.
 */
export function linkValues(f: Finding, presenter: Presenter): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = { ...presenter.linkValues(f), ...f.labels };
  if (values.reason !== undefined && !isCode(values.reason)) values.reason = undefined;
  return values;
}

/**
 * A URL, or undefined when it is none. Not `URL.canParse`: on Node 22, once the optimiser takes
 * its fast path, it answers false for a text with characters past Latin-1 (an IDN host such as
 * `bücher.example`) that `new URL` parses, so a link would vanish only in a warm process.
 */
function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
