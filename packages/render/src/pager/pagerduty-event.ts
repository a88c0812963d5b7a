import { createHash } from "node:crypto";
import { humanDuration, incidentSilenceCommand, oneLine, safeLink, shortTime } from "@fleet-auditor/audit";
import type { DigestV1 } from "../structured/digest-v1-schema.ts";
import type { HealthV1 } from "../structured/health-v1-schema.ts";
import type { TestV1 } from "../structured/test-v1-schema.ts";
import { digestTitleSource } from "../title/digest-title.ts";
import { fitTitle, type TitlePart } from "../title/fit-title.ts";
import { titleParts } from "../title/title-parts.ts";

// PagerDuty Events API v2 events built from this product's structured messages: the pager's
// channel, beside the e-mail, Chatbot and Slack renderings; pure, no I/O. use-cases'
// `pager-delivery.ts` chooses which one a delivered message is; notify's `PagerDutyEvents` adds
// the routing key and sends it.

/**
 * PagerDuty's limits, as its Events API v2 states them: a `dedup_key` of at most 255 characters, a
 * `summary` of at most 1,024, an event of at most 512 KB (counted here as 512,000 bytes, the
 * smaller reading); and ours: at most 20 transitions in `custom_details`.
 */
export const PAGER_LIMITS = { dedupKey: 255, summary: 1_024, eventBytes: 512_000, transitions: 20 } as const;

/** The severities PagerDuty knows; the digest's and the notice's are among them. */
type PagerSeverity = "critical" | "error" | "warning" | "info";

/** A link PagerDuty shows on the alert (`href`, `text`): always a plain `https:` URL (`SAFE_LINK`). */
interface PagerLink {
  href: string;
  text: string;
}

/** `trigger`: opens an alert under `dedup_key`, or adds to the one open under it. */
export interface PagerTrigger {
  event_action: "trigger";
  dedup_key: string;
  payload: {
    /** One line, at most 1,024 characters. */
    summary: string;
    /** The landscape, else `fleet-auditor`. */
    source: string;
    severity: PagerSeverity;
    /** When the incident began (its onset) or the health episode's first bad run. */
    timestamp: string;
    /** The audit. */
    component: string;
    /** The landscape. */
    group?: string;
    /** The transition kinds told (`firing,changed`), or the notice's status. */
    class: string;
    /**
     * Bounded: at most 20 transitions, every text cut, whatever the digest holds. An incident's
     * carry `incident_key`, and when every row shares them `shoot`, `region`, `console` and
     * `runbook`, and the `silence` command of the incident.
     */
    custom_details: Record<string, unknown>;
  };
  links: PagerLink[];
  client: "fleet-auditor";
}

/** `resolve`: closes the alert open under `dedup_key` (PagerDuty ignores it when none is). */
export interface PagerResolve {
  event_action: "resolve";
  dedup_key: string;
}

/** `acknowledge`: the alert open under `dedup_key` stops notifying its responders until it changes. */
interface PagerAcknowledge {
  event_action: "acknowledge";
  dedup_key: string;
}

/** An Events API v2 event without its routing key, which only the sender holds. */
export type PagerEvent = PagerTrigger | PagerResolve | PagerAcknowledge;

/** An incident message's event: `firing` triggers, `resolved` resolves, under `incident.key`. */
export function incidentPagerEvent(
  digest: DigestV1,
  incident: NonNullable<DigestV1["incident"]>,
): PagerEvent {
  if (incident.status === "resolved") return { event_action: "resolve", dedup_key: incident.key };
  return digestTrigger(digest, incident.key, incident.startsAt);
}

/**
 * A digest without `incident` (an older release's critical copy) triggers under a key made from
 * its landscape, audit and run: a retried invocation adds to the alert it opened instead of
 * opening another. Nothing says when that alert ends: it is resolved in PagerDuty.
 */
export function runDigestPagerEvent(digest: DigestV1): PagerTrigger {
  const identity = JSON.stringify([digest.landscape ?? "", digest.audit, "run", digest.runId]);
  const key = `run-${createHash("sha256").update(identity).digest("base64url").slice(0, 24)}`;
  return digestTrigger(digest, key, digest.at);
}

/** A health notice's event under its episode's `key`: `degraded` triggers (warning), `recovered` resolves. */
export function healthPagerEvent(notice: HealthV1): PagerEvent {
  if (notice.status === "recovered") return { event_action: "resolve", dedup_key: notice.key };
  return {
    event_action: "trigger",
    dedup_key: notice.key,
    payload: {
      ...common(notice, notice.text, notice.since),
      severity: "warning",
      class: notice.status,
      custom_details: {
        runId: cut(notice.runId),
        at: notice.at,
        status: notice.status,
        since: notice.since,
        badRuns: notice.badRuns,
        reason: cut(notice.reason, 500),
        runbook: cut(notice.runbook, 500),
      },
    },
    // The runbook is a URL only with RUNBOOK_URL_TEMPLATE; otherwise a pointer to the docs, in details.
    links: links([["Runbook", notice.runbook]]),
    client: "fleet-auditor",
  };
}

/**
 * A test notice's events (`notify test` on the Critical topic): a `trigger` of severity `info`
 * whose summary starts `[TEST]`, then at once a `resolve` under the same key, unique to the test:
 * the route to PagerDuty is proven and nobody stays paged.
 */
export function testPagerEvents(notice: TestV1): [PagerTrigger, PagerResolve] {
  const where = notice.landscape ? `[${notice.landscape}] ` : "";
  const trigger: PagerTrigger = {
    event_action: "trigger",
    dedup_key: notice.key,
    payload: {
      ...common(
        { landscape: notice.landscape, audit: "notify-test" },
        `[TEST] ${where}fleet-auditor ${notice.topic} topic: a test, nothing is wrong; resolved at once`,
        notice.at,
      ),
      severity: "info",
      class: "test",
      custom_details: {
        test: "a test message sent by notify test: nothing is wrong, and this alert is resolved at once",
        testId: cut(notice.testId),
        at: notice.at,
        sender: cut(notice.sender, 100),
        topic: notice.topic,
      },
    },
    links: [],
    client: "fleet-auditor",
  };
  return [trigger, { event_action: "resolve", dedup_key: notice.key }];
}

function digestTrigger(digest: DigestV1, key: string, startsAt: string): PagerTrigger {
  const shown = digest.transitions.slice(0, PAGER_LIMITS.transitions);
  const kinds = Object.entries(digest.counts).filter(([, n]) => n > 0);
  const runbooks = new Set(digest.transitions.map((t) => t.links.runbook));
  const runbook = runbooks.size === 1 ? digest.transitions[0]?.links.runbook : undefined;
  const firstRunbook = digest.transitions.find((t) => t.links.runbook)?.links.runbook;
  const where = placeOf(digest.transitions);
  const silence = digest.incident ? incidentSilenceCommand(digest.audit, key, digest.store ?? {}) : undefined;
  return {
    event_action: "trigger",
    dedup_key: key,
    payload: {
      ...common(digest, phoneSummary(digest, startsAt), startsAt),
      severity: digest.severity,
      class: kinds.map(([kind]) => kind).join(",") || "digest",
      custom_details: {
        incident_key: key,
        ...(where.shoot ? { shoot: cut(where.shoot) } : {}),
        ...(where.region ? { region: cut(where.region) } : {}),
        ...(where.console ? { console: where.console } : {}),
        ...(runbook ? { runbook } : {}),
        ...(silence && silence.length <= 1_000 ? { silence } : {}),
        runId: cut(digest.runId),
        at: digest.at,
        ...(digest.incident ? { incident: digest.incident } : {}),
        counts: digest.counts,
        scan: {
          ...digest.scan,
          incompleteReason: digest.scan.incompleteReason && cut(digest.scan.incompleteReason),
        },
        report: {
          command: cut(digest.report.command, 500),
          ...(digest.report.url ? { url: digest.report.url } : {}),
          stored: digest.report.stored,
        },
        transitions: shown.map((t) => ({
          key: cut(t.alert?.key ?? t.instanceID),
          kind: t.kind,
          state: cut(t.state, 100),
          reason: cut(t.reason),
          ...(detailOf(t, "shoot") ? { shoot: cut(detailOf(t, "shoot") as string, 100) } : {}),
          ...(detailOf(t, "region") ? { region: cut(detailOf(t, "region") as string, 100) } : {}),
          ...(t.links.runtime && safeLink(t.links.runtime) ? { console: t.links.runtime } : {}),
        })),
        // What this event does not list, the run report does.
        moreTransitions: digest.transitions.length - shown.length + digest.omitted,
      },
    },
    links: links([
      ...shown
        .slice(0, CONSOLE_LINKS)
        .map((t): [string, string | undefined] => [
          `Console: ${cut(t.alert?.summary || t.shootName || t.instanceID, 60)}`,
          t.links.runtime,
        ]),
      ["Runbook", runbook ?? firstRunbook],
      ["Run report", digest.report.url],
    ]),
    client: "fleet-auditor",
  };
}

// Console links a trigger carries, of its first transitions; the rest are in its details and the report.
const CONSOLE_LINKS = 5;

/**
 * The summary an on-call person hears on the phone: what (the incident's values), how many and
 * what happened, what is inside, where (the landscape), since when, and the finding's
 * description (KEB's), within PagerDuty's 1,024 characters, fitted as every title is.
 */
function phoneSummary(digest: DigestV1, startsAt: string): string {
  const age = humanDuration(Date.parse(digest.at) - Date.parse(startsAt));
  const parts: TitlePart[] = [
    ...titleParts(digestTitleSource(digest)),
    { role: "aside", text: `since ${shortTime(startsAt)} (${age})`, sep: " | " },
    { role: "aside", text: descriptionOf(digest.transitions), sep: " | " },
  ];
  return fitTitle(
    parts.map((p) => ({ ...p, text: oneLine(p.text, PAGER_LIMITS.summary) })),
    { max: PAGER_LIMITS.summary, ellipsis: "…" },
  );
}

/** The description the rows share (`description: quota exceeded`), or the first one's, said to be one. */
function descriptionOf(rows: DigestV1["transitions"]): string {
  const told = rows.filter((t) => t.kind !== "resolved");
  const described = told.filter((t) => detailOf(t, "description"));
  const first = described[0];
  if (!first) return "";
  const text = detailOf(first, "description") as string;
  if (described.every((t) => detailOf(t, "description") === text) && described.length === told.length)
    return `description: ${text}`;
  return `e.g. ${first.alert?.summary || first.shootName || first.instanceID}: ${text}`;
}

/** A row's detail by name (its presenter's: `description`, `shoot`, `region`), or undefined. */
function detailOf(t: DigestV1["transitions"][number], name: string): string | undefined {
  return t.alert?.details?.find((d) => d.name === name)?.value || undefined;
}

/** The shoot, region and console page every row shares: one runtime's, or none. */
function placeOf(rows: DigestV1["transitions"]): { shoot?: string; region?: string; console?: string } {
  const one = (values: ReadonlyArray<string | undefined>): string | undefined =>
    new Set(values).size === 1 ? values[0] : undefined;
  // A row carries its details only where a chat shows them (a lone member, a message's first
  // row): the v1 fields every row has say the rest.
  const shoot = one(rows.map((t) => detailOf(t, "shoot") ?? (t.shootName || undefined)));
  const region = one(rows.map((t) => detailOf(t, "region") ?? (t.region || undefined)));
  const console = one(rows.map((t) => t.links.runtime));
  return {
    ...(shoot ? { shoot } : {}),
    ...(region ? { region } : {}),
    ...(console && safeLink(console) ? { console } : {}),
  };
}

/** The payload fields a digest and a notice fill alike. */
function common(doc: { landscape?: string | undefined; audit: string }, summary: string, timestamp: string) {
  return {
    summary: oneLine(summary, PAGER_LIMITS.summary),
    source: doc.landscape ? cut(doc.landscape) : "fleet-auditor",
    timestamp,
    component: cut(doc.audit),
    ...(doc.landscape ? { group: cut(doc.landscape) } : {}),
  };
}

/** The links that are plain `https:` URLs, each once. */
function links(candidates: ReadonlyArray<[string, string | undefined]>): PagerLink[] {
  const out: PagerLink[] = [];
  for (const [text, href] of candidates)
    if (href && safeLink(href) && !out.some((l) => l.href === href)) out.push({ href, text });
  return out;
}

const cut = (text: string, max = 200): string => oneLine(text, max);
