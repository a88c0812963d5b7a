import { type IncidentHistory, type IncidentRecord, incidentStats } from "@fleet-auditor/audit";
import { incidentReportHtml } from "@fleet-auditor/render";
import { actOnIncident } from "@fleet-auditor/use-cases";
import { byWhom, oneOf, parseSince, stateDirOption, subcommand } from "../args.ts";
import { KNOWN_AUDITS } from "../audits.ts";
import { openIncidents } from "../backend.ts";
import type { Command, Io } from "../command.ts";
import { parseCommandLine } from "../command-line.ts";
import type { CliEnv } from "../env.ts";
import { UsageError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import { type FlappingEpisodes, incidentListCsv, incidentListTable } from "../incident-list-view.ts";
import { incidentShowText } from "../incident-show-view.ts";
import { incidentStatsText } from "../incident-stats-view.ts";
import { listRows } from "../list-rows.ts";
import { openPublisher } from "../message-backend.ts";
import { DATA_FORMATS, noHeadersOption, type Output, parseOutput, printData } from "../output.ts";
import { REPORT_TIMELINES, reportTimelines } from "../report-timelines.ts";
import { escapeControl } from "../table.ts";

const AUDIT_NAMES = KNOWN_AUDITS.names;
const AUDIT = `[--audit ${AUDIT_NAMES.join("|")}]`;

const USAGE = `usage:
  fleet-auditor incidents list [--open] [--since 7d] ${AUDIT} [-o table|json|yaml|csv] [--no-headers]
  fleet-auditor incidents show KEY [-o table|json|yaml]
  fleet-auditor incidents stats [--since 30d] [--flapping N] ${AUDIT} [-o table|json|yaml]
  fleet-auditor incidents report [--since 7d] ${AUDIT} -o html > report.html
  fleet-auditor incidents ack KEY [--by NAME] [--comment TEXT]
  fleet-auditor incidents unack KEY [--by NAME] [--comment TEXT]

Each incident's history, as the audit runs kept it (for INCIDENT_RETENTION_DAYS, default 90).
list: the incidents open at some time in the window (--since ISO-TIME or 90s|30m|4h|2d back from
now, default 7d), newest opening first; --open: only those still open. FLAPPING: the times its
values opened and ended in the window, when 3 or more. Times are UTC.
show: an incident's record (KEY: its incidentKey, as messages, list and stats give it), then its
timeline, oldest first: what each run told of it.
stats: the window (default the last 30d) counted: incidents opened, ended and open at its end;
time to resolve (nearest-rank p50 and p90 of those that ended) overall and by audit, reason and
region; the noisiest (most events); and the flapping ones: the same values opened and ended at
least --flapping N times (default 3) in the window.
report: the window (default 7d) as one self-contained HTML page that makes no request (its style
and script inline, a Content-Security-Policy that forbids the rest): the stats, a timeline of the
incidents, the sortable table, and the timelines of the ${REPORT_TIMELINES} most recent incidents
(incidents show KEY prints any other's). -o html is its only format, and its default.
ack: acknowledges an open incident (KEY: an incident's or a roll-up's): its reminders stop (a
change is still told), and so do those of every open incident of another route that shares its
members (the pager's page is acknowledged); told in its thread (the incidents topic) and to the
pager (the critical topic) where the variables name them, else appended to the outbox. --by (who)
defaults to $USER, else the account's name. unack takes it back. Again on an incident that is
(no longer) acknowledged: nothing changes, exit 0.
options: --state-dir DIR (default .fleet-auditor/); AUDIT_TABLE=<table> (or sst shell) uses DynamoDB.
exit codes: 0 found (an empty list too), 1 bad input or no such incident, 2 DynamoDB throttled or
unreachable.
`;

const SUBCOMMANDS = ["list", "show", "stats", "report", "ack", "unack"] as const;
type Sub = (typeof SUBCOMMANDS)[number];
const OPTIONS = {
  ...stateDirOption,
  // No default: a subcommand's own (a table, or the report's page).
  output: { type: "string", short: "o" },
  ...noHeadersOption,
  open: { type: "boolean", default: false },
  since: { type: "string" },
  audit: { type: "string" },
  flapping: { type: "string" },
  by: { type: "string" },
  comment: { type: "string" },
} as const;
const TAKEN_BY = {
  "no-headers": ["list"],
  open: ["list"],
  since: ["list", "stats", "report"],
  audit: ["list", "stats", "report"],
  flapping: ["stats"],
  by: ["ack", "unack"],
  comment: ["ack", "unack"],
  output: ["list", "show", "stats", "report"],
};

const DEFAULT_SINCE: Record<"list" | "stats" | "report", string> = { list: "7d", stats: "30d", report: "7d" };
/** The subcommands that name one incident by its key. */
const BY_KEY: readonly Sub[] = ["show", "ack", "unack"];
const FORMATS: Record<Exclude<Sub, "ack" | "unack">, readonly Output[]> = {
  list: [...DATA_FORMATS, "csv"],
  show: DATA_FORMATS,
  stats: DATA_FORMATS,
  report: ["html"],
};
/** The bar of a flapping series where `--flapping` is not given (the statistics' own). */
const DEFAULT_FLAP_AFTER = 3;

/** `fleet-auditor incidents …`: each incident's history (list, show, stats, report), and ack, unack. */
export const incidentsCommand: Command = {
  name: "incidents",
  summary: "incident history: list, show (the timeline), stats, report (an HTML page); ack, unack",
  usage: USAGE,
  subcommands: SUBCOMMANDS,
  options: OPTIONS,
  takenBy: TAKEN_BY,
  async run(argv, { env, vars, io, now }) {
    const [given, ...rest] = argv;
    const sub = subcommand("incidents", given, SUBCOMMANDS);
    const { values, positionals } = parseCommandLine(rest, OPTIONS, BY_KEY.includes(sub) ? 1 : 0, {
      command: "incidents",
      sub,
      takenBy: TAKEN_BY,
    });
    if (sub === "ack" || sub === "unack")
      return await acknowledge(sub, positionals[0], values, env, vars, io, now);
    const output = parseOutput<Output>(values.output ?? (sub === "report" ? "html" : "table"), FORMATS[sub]);
    if (values.audit !== undefined) oneOf(values.audit, AUDIT_NAMES, "--audit");
    const key = positionals[0];
    if (sub === "show" && !key) throw new UsageError("incidents show needs a KEY (an incidentKey)");
    const flapAfter = parseFlapping(values.flapping);
    const until = now();
    const since = sub === "show" ? until : parseSince(values.since ?? DEFAULT_SINCE[sub], until);
    const window = { since, until };
    const query = {
      ...(values.audit ? { audit: values.audit } : {}),
      since,
      ...(values.open ? { open: true } : {}),
    };
    if (sub === "list") {
      const records = await listRows(
        output,
        () => openIncidents(values["state-dir"], env, "read"),
        (backend) => backend.history.listIncidents(AUDIT_NAMES, query),
      );
      const flapping = flappingEpisodes(records, window);
      printData(io, output, records, () =>
        output === "csv"
          ? incidentListCsv(records, flapping)
          : incidentListTable(records, flapping, values["no-headers"]),
      );
      return EXIT.done;
    }
    const backend = await openIncidents(values["state-dir"], env, "read");
    try {
      if (sub === "show") {
        const found = await backend.history.incidentTimeline(AUDIT_NAMES, key as string);
        if (!found) {
          io.stderr.write(
            `fleet-auditor: no incident ${escapeControl(key as string)} in the ${backend.description}\n`,
          );
          return EXIT.failed;
        }
        printData(io, output, found, () => incidentShowText(found.record, found.events));
        return EXIT.done;
      }
      const records = await backend.history.listIncidents(AUDIT_NAMES, query);
      if (sub === "report")
        io.stdout.write(await reportPage(backend.history, records, window, env.LANDSCAPE));
      else {
        const stats = incidentStats(records, window, { flapAfter });
        printData(io, output, stats, () => incidentStatsText(stats, flapAfter));
      }
      return EXIT.done;
    } finally {
      await backend.close();
    }
  },
};

/** `incidents ack|unack KEY`: the incident actions core, on the store and topics the variables name. */
async function acknowledge(
  sub: "ack" | "unack",
  key: string | undefined,
  values: {
    "state-dir": string;
    by?: string | undefined;
    comment?: string | undefined;
  },
  env: CliEnv,
  vars: Readonly<Record<string, string | undefined>>,
  io: Io,
  now: () => Date,
): Promise<number> {
  if (!key) throw new UsageError(`incidents ${sub} needs a KEY (an incidentKey)`);
  const by = byWhom(values.by, vars);
  if (!by)
    throw new UsageError(
      "--by is required when neither $USER nor the account's name is known: who acknowledges",
    );
  const messages = openPublisher(values["state-dir"], env);
  const backend = await openIncidents(values["state-dir"], env, "update");
  try {
    const result = await actOnIncident(
      {
        ports: {
          actions: backend.history,
          store: backend.store,
          silences: backend.silences,
          publisher: messages.publisher,
        },
        audits: AUDIT_NAMES,
        settings: { ...(env.LANDSCAPE ? { landscape: env.LANDSCAPE } : {}) },
        hooks: { clock: now },
      },
      {
        kind: sub === "ack" ? "acknowledge" : "unacknowledge",
        key,
        by,
        ...(values.comment ? { comment: values.comment } : {}),
      },
    );
    const shown = escapeControl(key);
    if (result.outcome === "unknown") {
      io.stderr.write(`fleet-auditor: no open incident ${shown} in the ${backend.description}\n`);
      return EXIT.failed;
    }
    const done = sub === "ack" ? "acknowledged" : "no longer acknowledged";
    if (result.outcome === "already")
      io.stdout.write(`incident ${shown} was ${done} already: nothing changed\n`);
    else {
      const others = result.keys.filter((k) => k !== key).map(escapeControl);
      io.stdout.write(
        `incident ${shown} ${done}${others.length ? ` with ${others.join(", ")}` : ""}; told: ${messages.description}\n`,
      );
    }
    return EXIT.done;
  } finally {
    messages.close();
    await backend.close();
  }
}

/** The report page of the window's records, with the most recent incidents' timelines. */
async function reportPage(
  history: IncidentHistory,
  records: IncidentRecord[],
  window: { since: Date; until: Date },
  landscape: string | undefined,
): Promise<string> {
  const timelines = await reportTimelines(history, records);
  return incidentReportHtml({
    ...(landscape ? { landscape } : {}),
    since: window.since.toISOString(),
    until: window.until.toISOString(),
    generatedAt: window.until.toISOString(),
    records,
    timelines,
    stats: incidentStats(records, window),
  });
}

/** `--flapping N`: an integer of at least 2 (one episode never flaps). */
function parseFlapping(value: string | undefined): number {
  if (value === undefined) return DEFAULT_FLAP_AFTER;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 2)
    throw new UsageError(`--flapping must be a whole number of 2 or more, got ${value}`);
  return n;
}

/** The episodes of each flapping series in the window, by the key of each incident in it. */
function flappingEpisodes(
  records: readonly IncidentRecord[],
  window: { since: Date; until: Date },
): FlappingEpisodes {
  const { flapping } = incidentStats(records, window, { flapAfter: DEFAULT_FLAP_AFTER, noisiest: 0 });
  return new Map(flapping.flatMap((f) => f.keys.map((k) => [k, f.episodes] as const)));
}
