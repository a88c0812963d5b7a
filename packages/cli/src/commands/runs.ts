import {
  type AuditDefinition,
  type DigestV1Row,
  definePresenter,
  type RunSummary,
  reasonOf,
  type Transition,
  type TransitionSummary,
} from "@fleet-auditor/audit";
import { KEB_LABELS } from "@fleet-auditor/keb-audits";
import { type RunView, showRun } from "@fleet-auditor/use-cases";
import { oneOf, parseLimit, stateDirOption, subcommand } from "../args.ts";
import { KNOWN_AUDITS } from "../audits.ts";
import { openRuns } from "../backend.ts";
import type { Command } from "../command.ts";
import { parseCommandLine } from "../command-line.ts";
import { UsageError } from "../errors.ts";
import { EXIT } from "../exit-codes.ts";
import { listRows } from "../list-rows.ts";
import {
  DATA_FORMATS,
  listTable,
  noHeadersOption,
  type Output,
  outputOption,
  parseOutput,
  printData,
} from "../output.ts";
import { csvCell, escapeControl, renderTable } from "../table.ts";

const AUDIT_NAMES = KNOWN_AUDITS.names;

const USAGE = `usage:
  fleet-auditor runs list [--audit ${AUDIT_NAMES.join("|")}] [--limit N] [-o json|yaml|table] [--no-headers]
  fleet-auditor runs show RUN_ID [-o json|yaml|table|csv]

show prints every transition of a run (the run ID is the one its messages quote), from its
report; a run without transitions keeps none, and shows its ledger record.
options: --state-dir DIR (default .fleet-auditor/); AUDIT_TABLE=<table> (or sst shell) uses DynamoDB.
exit codes: 0 found, 1 bad input or no such run, 2 DynamoDB throttled or unreachable.
`;

const SUBCOMMANDS = ["list", "show"] as const;
const OPTIONS = {
  ...stateDirOption,
  ...outputOption,
  ...noHeadersOption,
  audit: { type: "string" },
  limit: { type: "string" },
} as const;
const TAKEN_BY = { audit: ["list"], limit: ["list"], "no-headers": ["list"] };

/** `fleet-auditor runs …`: the run ledger and every run's report. */
export const runsCommand: Command = {
  name: "runs",
  summary: "the run ledger and each run's full report: list, show",
  usage: USAGE,
  subcommands: SUBCOMMANDS,
  options: OPTIONS,
  takenBy: TAKEN_BY,
  async run(argv, { env, io }) {
    const [given, ...rest] = argv;
    const sub = subcommand("runs", given, SUBCOMMANDS);
    const { values, positionals } = parseCommandLine(rest, OPTIONS, sub === "show" ? 1 : 0, {
      command: "runs",
      sub,
      takenBy: TAKEN_BY,
    });
    const output = parseOutput<Output>(
      values.output,
      sub === "show" ? [...DATA_FORMATS, "csv"] : DATA_FORMATS,
    );
    if (values.audit !== undefined) oneOf(values.audit, AUDIT_NAMES, "--audit");
    const runId = positionals[0];
    if (sub === "show" && !runId) throw new UsageError("runs show needs a RUN_ID");
    const limit = parseLimit(values.limit) ?? 20;
    if (sub === "list") {
      const audits = values.audit ? [values.audit] : AUDIT_NAMES;
      const runs = await listRows(
        output,
        () => openRuns(values["state-dir"], env, "read"),
        async (backend) =>
          (await Promise.all(audits.map((a) => backend.store.recentRuns(a, limit))))
            .flat()
            .map((r) => r.summary)
            .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
            .slice(0, limit),
      );
      printData(io, output, runs.map(listed), () => runTable(runs, values["no-headers"]));
      return EXIT.done;
    }
    const backend = await openRuns(values["state-dir"], env, "read");
    try {
      const view = await showRun({ ...backend, audits: KNOWN_AUDITS }, runId as string);
      if (!view) {
        io.stderr.write(
          `fleet-auditor: no run ${escapeControl(runId as string)} in the ${backend.description}\n`,
        );
        return EXIT.failed;
      }
      const audit = KNOWN_AUDITS.audits.find((a) => a.name === view.audit);
      printData(io, output, view, () => (output === "csv" ? csv(view, audit) : showTable(view, audit)));
      return EXIT.done;
    } finally {
      await backend.close();
    }
  },
};

/** A ledger line: the run without its transition list. */
function listed(s: RunSummary) {
  const { transitions, ...rest } = s;
  return { ...rest, transitions: transitions.length + (s.transitionsOmitted ?? 0) };
}

function runTable(runs: RunSummary[], noHeaders: boolean): string {
  return listTable(
    ["STARTED", "AUDIT", "RUN ID", "STATUS", "SCAN", "TRANSITIONS", "MESSAGES"],
    runs.map((s) => [
      s.startedAt.replace("T", " ").slice(0, 19),
      s.audit,
      s.runId,
      s.status,
      s.complete ? "complete" : "INCOMPLETE",
      String(s.transitions.length + (s.transitionsOmitted ?? 0)),
      String(s.notified.messages),
    ]),
    { empty: "no runs", noHeaders },
  );
}

const isReport = (t: Transition | TransitionSummary): t is Transition => "finding" in t;

/**
 * A transition's fields in the columns runs have always had (`instanceID`, `shootName`, `region`,
 * `operation`, …): the structured digest v1's, as the run's audit spells them (an audit this CLI
 * does not know gives its key and summary). Scripts read these columns by position.
 */
function v1Fields(audit: AuditDefinition | undefined): (t: Transition) => DigestV1Row {
  const presenter = audit?.presenter ?? definePresenter({});
  return (t) => presenter.digestV1.row(t.finding);
}

function showTable(v: RunView, audit: AuditDefinition | undefined): string {
  // The incomplete reason may quote KEB; the rest is the store's, which a shared table makes outside data too.
  const head = escapeControl(
    `run ${v.runId}: ${v.audit}, ${v.status}, ${v.complete ? "complete scan" : `INCOMPLETE scan (${v.incompleteReason})`}, started ${v.startedAt}, ${v.transitions.length} transition(s)${v.transitionsOmitted ? ` (+${v.transitionsOmitted} not kept: no report)` : ""}`,
  );
  if (v.transitions.length === 0) return `${head}\n\nno transitions`;
  const fields = v1Fields(audit);
  const rows = v.transitions.map((t) => {
    if (!isReport(t))
      return [t.kind, t.severity, t.state, t.previousState ?? "-", "-", "-", "-", "-", t.instanceID, "-"];
    const f = fields(t);
    return [
      t.kind,
      t.severity,
      t.state,
      t.previousState ?? "-",
      f.shootName || "-",
      f.region || "-",
      f.plan || "-",
      reasonOf(t.finding) || "-",
      t.key,
      t.since,
    ];
  });
  return `${head}\n\n${renderTable(["KIND", "SEVERITY", "STATE", "PREVIOUS", "SHOOT", "REGION", "PLAN", "REASON", "INSTANCE ID", "SINCE"], rows)}`;
}

const CSV_COLUMNS = [
  "kind",
  "severity",
  "state",
  "previousState",
  "instanceID",
  "runtimeID",
  "shootName",
  "globalAccountID",
  "subAccountID",
  "plan",
  "region",
  "provider",
  "reason",
  "since",
  "ending",
  "silencedBy",
  "expiredAt",
  "operationKind",
  "operationID",
  "operationState",
  "operationDescription",
  // Added after the columns scripts read by position.
  "inhibitedBy",
] as const;

// v1's operation, as KEB findings carry it (other findings have none).
interface Operation {
  kind?: string;
  operationID?: string;
  state?: string;
  description?: string;
}

// Labels the columns above already hold; the others become columns of their own, after them.
const IN_COLUMNS: ReadonlySet<string> = new Set(KEB_LABELS);

/**
 * RFC 4180 CSV with a header, one record per line; cells as `csvCell` makes them (escaped,
 * formula-guarded). The columns runs have always had, in their order, then every label no column
 * holds (e.g. an edge finding's `node`), in the order the rows first have them.
 */
function csv(v: RunView, audit: AuditDefinition | undefined): string {
  const rows = v.transitions.map((t) => (isReport(t) ? t : undefined));
  const extra = [
    ...new Set(
      rows.flatMap((t) => (t ? Object.keys(t.finding.labels).filter((l) => !IN_COLUMNS.has(l)) : [])),
    ),
  ];
  const fields = v1Fields(audit);
  const records = v.transitions.map((t, i) => {
    const r = rows[i];
    const f = r ? fields(r) : undefined;
    const op = f?.operation as Operation | undefined;
    const values: Record<(typeof CSV_COLUMNS)[number], string | null | undefined> = {
      kind: t.kind,
      severity: t.severity,
      state: t.state,
      previousState: t.previousState,
      instanceID: r ? r.key : (t as TransitionSummary).instanceID,
      runtimeID: f?.runtimeID,
      shootName: f?.shootName,
      globalAccountID: f?.globalAccountID,
      subAccountID: f?.subAccountID,
      plan: f?.plan,
      region: f?.region,
      provider: f?.provider,
      reason: r ? reasonOf(r.finding) : undefined,
      since: r?.since,
      ending: r?.ending,
      silencedBy: t.silencedBy,
      expiredAt: f?.expiredAt,
      operationKind: op?.kind,
      operationID: op?.operationID,
      operationState: op?.state,
      operationDescription: op?.description,
      inhibitedBy: t.inhibitedBy,
    };
    const labels = r?.finding.labels ?? {};
    return [
      ...CSV_COLUMNS.map((c) => values[c] ?? ""),
      ...extra.map((l) => (Object.hasOwn(labels, l) ? labels[l] : "")),
    ]
      .map((cell) => csvCell(cell ?? ""))
      .join(",");
  });
  return [[...CSV_COLUMNS, ...extra.map(csvCell)].join(","), ...records].join("\r\n");
}
