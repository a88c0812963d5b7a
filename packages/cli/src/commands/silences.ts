import { randomUUID } from "node:crypto";
import {
  DEFAULT_ROUTE,
  formatMatcher,
  incidentLabel,
  type LabelMatcher,
  parseMatchers,
  type Silence,
  SilenceMatcherError,
  type SnapshotEntry,
  silenceState,
} from "@fleet-auditor/audit";
import { byWhom, oneOf, parseDuration, parseIsoTime, stateDirOption, subcommand } from "../args.ts";
import { KNOWN_AUDITS } from "../audits.ts";
import { openSilences } from "../backend.ts";
import type { Command } from "../command.ts";
import { parseCommandLine } from "../command-line.ts";
import { UsageError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import { listRows } from "../list-rows.ts";
import { listTable, noHeadersOption, outputOption, parseOutput, printData } from "../output.ts";
import { didYouMean } from "../suggest.ts";
import { escapeControl, terminalJson } from "../table.ts";

const AUDIT_NAMES = KNOWN_AUDITS.names;

const USAGE = `usage:
  fleet-auditor silences add (--match LABEL(=|!=|=~|!~)VALUE [--match …] | --incident KEY)
                             (--for 90s|30m|4h|2d | --until ISO-TIME) [--starts ISO-TIME]
                             --comment TEXT [--by NAME] [--audit ${AUDIT_NAMES.join("|")}] [--force] [-o json|yaml|table]
  fleet-auditor silences list [--all] [-o json|yaml|table] [--no-headers]   pending and active ones (--all: expired too)
  fleet-auditor silences expire ID

--incident KEY silences an open incident (its incidentKey, as messages and reports give it): its
members, whatever their reason becomes (the matcher incident_<route>=KEY: every finding carries
the key of its incident on each route), for its audit; --match adds to them. --starts plans a window that
begins later (a maintenance); --for then counts from it. A store that has never recorded a run
of the audit (a mistyped AUDIT_TABLE or --state-dir) is refused unless --force; so is a
placeholder comment ("..."). --by (who silences) defaults to $USER, else the account's name.

matchers (all must hold), as Alertmanager reads them: = equal, != not equal, =~ matches, !~ does
not match a regular expression (RE2 syntax, anchored at both ends; . stops at a line break unless
(?s)). A label a finding lacks reads as "". Spaces around the operator are dropped. A value may be
in double quotes, where \\" \\\\ \\n are a quote, a backslash, a line break: quote one that holds a
space, a comma, a quote, a backslash or a brace. One --match may hold several, in braces, as
Alertmanager's configuration writes them:
  --match 'reason=~err_keb_.*'    --match 'reason="quota exceeded, retry later"'
  --match '{reason=~"err_.*", region="eu-west-1"}'    (two matchers, both must hold)
labels of the KEB audits: instance, runtime, shoot, account, subaccount, plan, region, provider,
state, reason (the error reason, else the failing step, as messages show it); of the applications
audit: node, verb, resource, namespace, name, status, state (stuck, refused, quarantined), reason
(e.g. "403 Forbidden"), code.
options: --state-dir DIR (default .fleet-auditor/); AUDIT_TABLE=<table> (or sst shell) uses DynamoDB.
exit codes: 0 done; 1 bad input or no such silence; 2 DynamoDB throttled or unreachable.
`;

// The labels any audit's findings have, as the registry knows them.
const LABELS: readonly string[] = [...new Set(AUDIT_NAMES.flatMap((a) => KNOWN_AUDITS.labelsOf(a)))];

/**
 * `--match` values as label matchers, each value one matcher or a braced list (`parseMatchers`),
 * each matcher checked against the labels the audit's findings have.
 */
function matchersFrom(texts: readonly string[], audit: string | undefined): LabelMatcher[] {
  return texts.flatMap((text) => {
    let read: LabelMatcher[];
    try {
      read = parseMatchers(text);
    } catch (err) {
      if (!(err instanceof SilenceMatcherError)) throw err;
      // A list names the matcher at fault; a single one is the --match value itself.
      const which = err.matcher === text.trim() ? "" : `${err.matcher}: `;
      throw new UsageError(`--match ${text}: ${which}${err.problem}`);
    }
    return read.map((m) => checkLabel(m, text, audit));
  });
}

/** The matcher, if its label is one the audit's findings have and it is not `LABEL=` (empty). */
function checkLabel(m: LabelMatcher, text: string, audit: string | undefined): LabelMatcher {
  if (!LABELS.includes(m.name))
    throw new UsageError(`--match ${text}: no finding has the label ${m.name}${didYouMean(m.name, LABELS)}`);
  // An incident's audit may be one this CLI does not register: any audit's labels then.
  const labels = audit !== undefined && AUDIT_NAMES.includes(audit) ? KNOWN_AUDITS.labelsOf(audit) : LABELS;
  if (!labels.includes(m.name))
    throw new UsageError(
      `--match ${text}: the ${audit} audit's findings have no label ${m.name}${m.name === "region" && labels.includes("node") ? "; did you mean node?" : ""}`,
    );
  // `LABEL=` with nothing after it matches every finding without the label: a typo, not a silence.
  if (m.op === "=" && m.value === "")
    throw new UsageError(
      `--match ${text}: give a value (a silence on an empty label would match almost everything)`,
    );
  return m;
}

const SUBCOMMANDS = ["add", "list", "expire"] as const;
const OPTIONS = {
  ...stateDirOption,
  ...outputOption,
  ...noHeadersOption,
  match: { type: "string", multiple: true, default: [] as string[] },
  for: { type: "string" },
  until: { type: "string" },
  comment: { type: "string" },
  by: { type: "string" },
  audit: { type: "string" },
  incident: { type: "string" },
  starts: { type: "string" },
  force: { type: "boolean", default: false },
  all: { type: "boolean", default: false },
} as const;
const ADD = ["add"];
const TAKEN_BY = {
  output: ["add", "list"],
  "no-headers": ["list"],
  all: ["list"],
  ...Object.fromEntries(
    ["match", "for", "until", "comment", "by", "audit", "incident", "starts", "force"].map((o) => [o, ADD]),
  ),
};

/** `fleet-auditor silences …`: keep matching runtimes quiet until a time. */
export const silencesCommand: Command = {
  name: "silences",
  summary: "keep matching runtimes quiet until a time: add, list, expire",
  usage: USAGE,
  subcommands: SUBCOMMANDS,
  options: OPTIONS,
  takenBy: TAKEN_BY,
  async run(argv, { env, vars, io, now: clock }) {
    const now = clock();
    const [given, ...rest] = argv;
    const sub = subcommand("silences", given, SUBCOMMANDS);
    const parsed = parseCommandLine(rest, OPTIONS, sub === "expire" ? 1 : 0, {
      command: "silences",
      sub,
      takenBy: TAKEN_BY,
    });
    const { positionals } = parsed;
    const values = { ...parsed.values, by: byWhom(parsed.values.by, vars) };
    const output = parseOutput(values.output);
    if (sub === "expire" && !positionals[0]) throw new UsageError("silences expire needs the silence ID");
    // What can be checked without the store is, before it is opened.
    if (sub === "add") newSilence(values, now, values.incident ? PLACEHOLDER_INCIDENT : undefined);
    if (sub === "list") {
      const stored = await listRows(
        output,
        () => openSilences(values["state-dir"], env, "read"),
        (b) => b.silences.list(),
      );
      const all = stored
        .map((x) => ({ ...x, state: silenceState(x, now) }))
        .filter((x) => values.all || x.state !== "expired")
        .sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : 0));
      printData(io, output, all, () => silenceTable(all, values["no-headers"]));
      return EXIT.done;
    }
    // A silence may be added before the store's first run, but only with --force: without it a
    // store that never ran is refused, so a missing one is refused before it is created (left
    // behind empty, a later look there would read "nothing has happened"). One to expire must be in it.
    const backend = await openSilences(
      values["state-dir"],
      env,
      sub === "add" && values.force ? "write" : "update",
    );
    try {
      let silence: Silence | undefined;
      if (sub === "add") {
        const incident = values.incident
          ? await openIncident(backend, values.incident, values.audit)
          : undefined;
        if (values.incident && !incident) {
          io.stderr.write(
            `fleet-auditor: no open incident ${escapeControl(values.incident)} in the ${backend.description}\n`,
          );
          return EXIT.failed;
        }
        silence = newSilence(values, now, incident);
        // A mistyped store (or none: a fresh ./.fleet-auditor/) takes the silence, prints an ID
        // and silences nothing: a store that never ran the audit is refused unless --force.
        if (!values.force && !(await hasRun(backend, silence.audit))) {
          io.stderr.write(
            `fleet-auditor: the ${backend.description} has never recorded a run of ${silence.audit ? `the ${silence.audit} audit` : "any audit"}: is it the store the audits use (AUDIT_TABLE, --state-dir)? --force adds the silence anyway\n`,
          );
          return EXIT.failed;
        }
      }
      if (silence) {
        await backend.silences.add(silence);
        const added = silence;
        // One line of JSON, as before: scripts read it with a line reader.
        if (output === "json") io.stdout.write(`${terminalJson(added, 0)}\n`);
        else printData(io, output, added, () => `silence ${added.id} until ${added.endsAt}`);
      } else if (sub === "expire") {
        const id = positionals[0] as string;
        const found = await backend.silences.expire(id, now).then(
          () => true,
          (err: unknown) => {
            // Only "no such silence" is the operator's to fix; DynamoDB failing is not.
            if ((err as Error).name === "ConditionalCheckFailedException") return false;
            throw err;
          },
        );
        if (!found) {
          io.stderr.write(`fleet-auditor: no silence ${escapeControl(id)} in the ${backend.description}\n`);
          return EXIT.failed;
        }
        io.stdout.write(`silence ${escapeControl(id)} expired\n`);
      }
      return EXIT.done;
    } finally {
      await backend.close();
    }
  },
};

/** Whether the store has recorded a run of `audit` (of any audit without one). */
async function hasRun(
  backend: { snapshots: { recentRuns(audit: string, limit: number): Promise<unknown[]> } },
  audit: string | undefined,
): Promise<boolean> {
  for (const name of audit ? [audit] : AUDIT_NAMES)
    if ((await backend.snapshots.recentRuns(name, 1)).length > 0) return true;
  return false;
}

// What a suggested command leaves for the operator to fill in: stored as it is, it says nothing.
const PLACEHOLDER = /^(\.{2,}|…|<[^>]*>|\[[^\]]*\]|todo|tbd|reason|comment|why)$/i;

/** An open incident as a silence takes it: its audit and the matcher of its members. */
interface OpenIncident {
  audit: string;
  match: LabelMatcher[];
}

// Stands in for the incident while the options are checked, before the store is opened.
const PLACEHOLDER_INCIDENT: OpenIncident = {
  audit: "failing",
  match: [{ name: "state", op: "=", value: "x" }],
};

/**
 * The open incident with this key, on any route, in `audit` or in any audit: `incident_<route>=KEY`,
 * the label its members carry. A key of an incident that ended is in no snapshot.
 */
async function openIncident(
  backend: { snapshots: { loadSnapshot(audit: string): Promise<Map<string, SnapshotEntry>> } },
  key: string,
  audit: string | undefined,
): Promise<OpenIncident | undefined> {
  for (const name of audit ? [audit] : AUDIT_NAMES) {
    for (const entry of (await backend.snapshots.loadSnapshot(name)).values()) {
      if (entry.phase !== "firing") continue;
      const route =
        entry.incident?.key === key
          ? DEFAULT_ROUTE
          : Object.entries(entry.routes ?? {}).find(([, ref]) => ref.key === key)?.[0];
      if (route !== undefined)
        return { audit: name, match: [{ name: incidentLabel(route), op: "=", value: key }] };
    }
  }
  return undefined;
}

function newSilence(
  v: {
    match: string[];
    for?: string;
    until?: string;
    starts?: string;
    comment?: string;
    by?: string;
    audit?: string;
  },
  now: Date,
  incident?: OpenIncident,
): Silence {
  if (v.audit) oneOf(v.audit, AUDIT_NAMES, "--audit");
  const audit = v.audit ?? incident?.audit;
  const match = [...(incident?.match ?? []), ...matchersFrom(v.match, audit)];
  if (match.length === 0)
    throw new UsageError(
      "a silence needs at least one --match or an --incident (it would silence everything)",
    );
  if (!v.comment?.trim()) throw new UsageError("--comment is required: say why");
  if (PLACEHOLDER.test(v.comment.trim()))
    throw new UsageError(
      `--comment "${v.comment.trim()}" is a placeholder: say why, e.g. --comment "INC-1234 quota raise"`,
    );
  if (!v.by)
    throw new UsageError("--by is required when neither $USER nor the account's name is known: who silences");
  const startsAt = v.starts === undefined ? now : parseIsoTime(v.starts);
  if (!startsAt)
    throw new UsageError(`--starts ${v.starts}: expected an ISO time such as 2026-12-24T22:00:00Z`);
  // A minute of slack for a time typed as "now"; further back, the window was meant otherwise.
  if (startsAt.getTime() < now.getTime() - 60_000)
    throw new UsageError(`--starts ${v.starts} is in the past: leave it out to start now`);
  const from = startsAt < now ? now : startsAt;
  const endsAt = endOf(v, from);
  if (endsAt <= from) throw new UsageError("the silence would end before it starts");
  const silence: Silence = {
    id: randomUUID(),
    match,
    startsAt: from.toISOString(),
    endsAt: endsAt.toISOString(),
    createdBy: v.by,
    comment: v.comment,
  };
  if (audit) silence.audit = audit;
  return silence;
}

function silenceTable(items: Array<Silence & { state: string }>, noHeaders: boolean): string {
  return listTable(
    ["ID", "STATE", "AUDIT", "MATCHES", "STARTS AT", "ENDS AT", "BY", "COMMENT"],
    items.map((s) => [
      s.id,
      s.state,
      s.audit ?? "all",
      s.match.map(formatMatcher).join(" "),
      s.startsAt,
      s.endsAt,
      s.createdBy,
      s.comment,
    ]),
    { empty: "no silences", noHeaders },
  );
}

/**
 * When the silence ends: `--for` counted from its start, or `--until`. A value that does not
 * parse is named, not reported as a missing end; both at once are refused, not one ignored.
 */
function endOf(v: { for?: string; until?: string }, from: Date): Date {
  if (v.for !== undefined && v.until !== undefined) throw new UsageError("give --for or --until, not both");
  if (v.for !== undefined) {
    const duration = parseDuration(v.for);
    if (duration === undefined)
      throw new UsageError(`--for ${v.for}: expected a duration such as 90s, 30m, 4h, 2d`);
    return new Date(from.getTime() + duration);
  }
  if (v.until !== undefined) {
    const until = parseIsoTime(v.until);
    if (!until) throw new UsageError(`--until ${v.until}: expected an ISO time such as 2026-12-24T22:00:00Z`);
    return until;
  }
  throw new UsageError("give the silence an end: --for 90s|30m|4h|2d or --until ISO-TIME");
}
