import type { IncidentEvent, IncidentEventKind, IncidentRecord, Severity } from "@fleet-auditor/audit";
import { Random } from "@fleet-auditor/keb-kubeedge-sim";

// Incident records as the history keeps them, for the statistics, the report page and its
// benchmark: one built by hand (`incidentRecord`), or a seeded week of them with their timelines
// (`manyIncidentRecords`), realistic in shape and counts, with some flapping and some hostile text.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The end of the generated week, and of `incidentRecord`'s defaults' day. */
export const HISTORY_UNTIL = new Date("2026-11-30T06:00:00.000Z");

/** An incident record's fields, any of them changed; `endedAt: undefined` makes it open. */
export type RecordChange = Partial<IncidentRecord>;

/**
 * An ended `failing` incident of `eu-central-1` (an hour long, three members, one page); `change`
 * overrides any field. `durationMs` and `lastAt` follow `openedAt` and `endedAt` unless given;
 * `endedAt: undefined` gives an open incident (no `durationMs`, members still firing).
 */
export function incidentRecord(change: RecordChange = {}): IncidentRecord {
  const openedAt = change.openedAt ?? "2026-11-29T10:00:00.000Z";
  const open = Object.hasOwn(change, "endedAt") && change.endedAt === undefined;
  const endedAt = open ? undefined : (change.endedAt ?? iso(Date.parse(openedAt) + HOUR));
  const record: IncidentRecord = {
    key: "inc-test-1",
    audit: "failing",
    route: "default",
    receiver: "incidents",
    values: { region: "eu-central-1" },
    common: { region: "eu-central-1", reason: "err_provisioning" },
    severity: "critical",
    openedAt,
    startsAt: iso(Date.parse(openedAt) - 5 * 60_000),
    lastAt: endedAt ?? openedAt,
    firing: open ? 3 : 0,
    peak: 3,
    members: 3,
    changes: 0,
    reminders: 0,
    pages: 1,
    silenced: 0,
    inhibited: 0,
    examples: [{ key: "inst-1", summary: "c-1 failed: err_provisioning" }],
    events: 2,
    ...change,
  };
  delete record.endedAt;
  delete record.durationMs;
  if (endedAt !== undefined) {
    record.endedAt = endedAt;
    record.durationMs = change.durationMs ?? Date.parse(endedAt) - Date.parse(openedAt);
  }
  return record;
}

/** Label values no page may run: each must show as the text it is. */
export const HOSTILE_VALUES = [
  "<img src=x onerror=alert(1)>",
  '"><script>alert(document.domain)</script>',
  "' onmouseover='alert(1)",
  "</script><script>alert(2)</script>",
  "<svg onload=alert(3)>",
  "&lt;b&gt; & <b>bold</b>",
] as const;

const REGIONS = ["eu-central-1", "eu-west-1", "us-east-1", "us-west-2", "ap-southeast-1", "ap-northeast-1"];
const REASONS = [
  "err_provisioning",
  "err_keb_timeout",
  "quota_exceeded",
  "err_deprovisioning",
  "cert_expired",
  "image_pull_backoff",
];
const CITIES = ["berlin", "munich", "paris", "austin", "tokyo"];

/** A week of incidents and their timelines. */
export interface IncidentHistoryFixture {
  since: Date;
  until: Date;
  /** Newest opening first, as the history lists them. */
  records: IncidentRecord[];
  timelines: Map<string, IncidentEvent[]>;
}

/**
 * `n` incidents over the week before `HISTORY_UNTIL`, the same for the same seed: three audits on
 * three routes, six regions and reasons, mostly short and some long, about one in twelve still
 * open, some in flapping series (three to five short episodes with the same values), about one in
 * forty with a hostile label value (`HOSTILE_VALUES`; none with `hostile: false`), and each with a
 * timeline whose counts add up to its record's.
 */
export function manyIncidentRecords(
  n: number,
  seed = 1,
  options: { hostile?: boolean } = {},
): IncidentHistoryFixture {
  const random = new Random(seed);
  const until = HISTORY_UNTIL.getTime();
  const since = until - 7 * DAY;
  const records: IncidentRecord[] = [];
  const timelines = new Map<string, IncidentEvent[]>();
  while (records.length < n) {
    const shape = incidentShape(random, records.length, options.hostile ?? true);
    const drawn = random.chance(0.04) ? random.int(3, 5) : 1;
    // A series is never cut short by `n`: each one flaps, as its records say.
    const series = drawn <= n - records.length ? drawn : 1;
    let openedAt = since + random.next() * 6.5 * DAY;
    let previous: string | undefined;
    for (let episode = 0; episode < series; episode++) {
      // Flapping episodes are short and close together; the rest last from minutes to days.
      const duration =
        series > 1 ? random.int(5, 40) * 60_000 : Math.round(2 * 60_000 * 900 ** random.next());
      const open = series === 1 && (random.chance(0.08) || openedAt + duration > until);
      const key = `inc-${random.hex(24)}`;
      const events = timeline(random, key, openedAt, open ? undefined : openedAt + duration, until);
      records.push(
        recordOf(
          shape,
          key,
          events,
          series > 1 && previous ? { episodes: series, postedIn: previous } : undefined,
        ),
      );
      timelines.set(key, events);
      previous ??= key;
      openedAt += duration + random.int(10, 90) * 60_000;
    }
  }
  records.sort((a, b) => b.openedAt.localeCompare(a.openedAt));
  return { since: new Date(since), until: HISTORY_UNTIL, records, timelines };
}

type Shape = Pick<IncidentRecord, "audit" | "route" | "receiver" | "values" | "common" | "severity">;

function incidentShape(random: Random, index: number, withHostile: boolean): Shape {
  const region = random.pick(REGIONS);
  const reason = random.pick(REASONS);
  const hostile =
    random.chance(0.025) && withHostile ? HOSTILE_VALUES[index % HOSTILE_VALUES.length] : undefined;
  const severity = random.weighted<Severity>([
    ["critical", 2],
    ["warning", 5],
    ["info", 1],
  ]);
  const kind = random.int(0, 9);
  if (kind < 6) {
    // The failing audit on the default route, grouped by region and subaccount; its members share
    // a reason or not.
    const shared = random.chance(0.7);
    const subaccount = `sa-${random.hex(4)}`;
    return {
      audit: "failing",
      route: "default",
      receiver: "incidents",
      values: { region: hostile ?? region, subaccount },
      common: { region: hostile ?? region, subaccount, plan: "aws", ...(shared ? { reason } : {}) },
      severity,
    };
  }
  if (kind < 8) {
    // The pager route groups by region: its incidents span subaccounts and reasons.
    return {
      audit: random.pick(["failing", "expired"]),
      route: "pager",
      receiver: "critical",
      values: { region },
      common: hostile ? { region, reason: hostile } : { region },
      severity: "critical",
    };
  }
  const node = hostile ?? `edge-${random.pick(CITIES)}-${String(random.int(1, 40)).padStart(2, "0")}`;
  return {
    audit: "applications",
    route: "edge",
    receiver: "incidents",
    values: { node, reason },
    common: { node, reason, region },
    severity: severity === "critical" ? "warning" : severity,
  };
}

/** An incident's events, oldest first: opening, news along the way, and its end unless open. */
function timeline(random: Random, key: string, opened: number, ended: number | undefined, until: number) {
  const events: IncidentEvent[] = [];
  let firing = 0;
  const at = (t: number) => iso(Math.min(t, until));
  const event = (t: number, what: IncidentEventKind[], counts: Partial<IncidentEvent>): void => {
    const e: IncidentEvent = {
      key,
      at: at(t),
      runId: `run-${random.hex(8)}`,
      what,
      joined: 0,
      changed: 0,
      left: 0,
      reminded: 0,
      silenced: 0,
      inhibited: 0,
      firing: 0,
      ...counts,
    };
    firing += e.joined - e.left;
    e.firing = firing;
    if (e.joined > 0 || e.left > 0)
      e.examples = [{ key: `inst-${random.hex(6)}`, summary: `c-${random.hex(7)} ${what[0]}` }];
    events.push(e);
  };
  const members = random.chance(0.1) ? random.int(20, 400) : random.int(1, 6);
  const page = random.chance(0.3);
  event(opened, ["opened", ...(page ? (["paged"] as const) : [])], {
    joined: members,
    ...(page ? { page: "trigger" as const } : {}),
  });
  const end = ended ?? until;
  // A noisy one in twenty: many runs with news.
  const news = random.chance(0.05) ? random.int(15, 40) : random.int(0, 4);
  for (let i = 1; i <= news; i++) {
    const t = opened + ((end - opened) * i) / (news + 1);
    const kind = random.pick(["joined", "changed", "reminded"] as const);
    if (kind === "joined") event(t, ["joined"], { joined: random.int(1, 3) });
    else if (kind === "changed") event(t, ["changed"], { changed: random.int(1, Math.max(1, firing)) });
    else event(t, ["reminded"], { reminded: firing });
  }
  if (ended !== undefined)
    event(ended, ["ended", ...(page ? (["paged"] as const) : [])], {
      left: firing,
      ...(page ? { page: "resolve" as const } : {}),
    });
  return events;
}

/** The record that a timeline adds up to. */
function recordOf(
  shape: Shape,
  key: string,
  events: IncidentEvent[],
  flapping: IncidentRecord["flapping"],
): IncidentRecord {
  const first = events[0] as IncidentEvent;
  const last = events[events.length - 1] as IncidentEvent;
  const ended = last.what.includes("ended") ? last.at : undefined;
  const sum = (count: (e: IncidentEvent) => number) => events.reduce((n, e) => n + count(e), 0);
  return {
    key,
    ...shape,
    openedAt: first.at,
    startsAt: iso(Date.parse(first.at) - 7 * 60_000),
    ...(ended ? { endedAt: ended, durationMs: Date.parse(ended) - Date.parse(first.at) } : {}),
    lastAt: last.at,
    firing: last.firing,
    peak: Math.max(...events.map((e) => e.firing)),
    members: sum((e) => e.joined),
    changes: sum((e) => e.changed),
    reminders: sum((e) => e.reminded),
    pages: events.filter((e) => e.page).length,
    silenced: 0,
    inhibited: 0,
    examples: first.examples ?? [],
    events: events.length,
    ...(flapping ? { flapping } : {}),
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();
