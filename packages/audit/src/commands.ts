import type { LabelMatcher } from "./matcher.ts";
import { formatMatcher } from "./matcher-format.ts";
import { parseMatchers } from "./matcher-parse.ts";
import { pastable, shellOption, shellQuote } from "./shell.ts";

// The commands messages suggest, one function each: every channel (e-mail, Chatbot, Slack)
// calls the same one, so all show the same text. Each names the store it acts on (`CommandStore`),
// since a command pasted without it acts on a fresh local store and does nothing (a silence that
// silences nothing prints an ID and exits 0). Each gives undefined when a value it would hold
// cannot be pasted safely (`pastable`): the command is then left out, never cut or flattened,
// since a changed value would inspect or silence something else.

/**
 * What a group of findings shares, as silence matchers: its audit's `groupBy` labels and the
 * values its members share (`TransitionGroup.labels`). A blank value matches any, so it is left
 * out; a label the audit does not group by is not the group's, so a silence never narrows to
 * its first member's value of it.
 */
export interface GroupMatch {
  audit: string;
  labels: ReadonlyArray<readonly [label: string, value: string]>;
}

/**
 * Where the suggested commands act: the run's own store. Deployed, its tables (and region) as
 * variables before the command, as the CLI reads them; embedded, `--state-dir` after it. Empty:
 * the CLI's default store (`./.fleet-auditor`), which only a terminal in the right directory has.
 */
export interface CommandStore {
  /** The AWS region of the tables (the function's `AWS_REGION`). */
  region?: string;
  /** The audit table (`AUDIT_TABLE`): runs, reports, silences, snapshots. */
  table?: string;
  /** The Application status table (`STATUS_TABLE`): `apps status`, `apps quarantine`. */
  statusTable?: string;
  /** The embedded store's directory (`--state-dir`), absolute. */
  stateDir?: string;
}

/** Which table of a store a command reads or writes. */
export type StoreTable = "audit" | "status";

const every = (values: readonly string[]): boolean => values.every(pastable);

/**
 * `command` (its words already quoted) made to act on `store`: `AWS_REGION=… AUDIT_TABLE=… `
 * (or `STATUS_TABLE=…`) before it, or `--state-dir …` after it. Undefined when the store names
 * what cannot be pasted, or is deployed without the table the command needs (it would read the
 * local store instead).
 *
 * @example inStore("fleet-auditor runs show r1", { region: "eu-west-1", table: "audit" }, "audit")
 * // AWS_REGION=eu-west-1 AUDIT_TABLE=audit fleet-auditor runs show r1
 */
export function inStore(command: string, store: CommandStore, uses: StoreTable): string | undefined {
  const { region, table, statusTable, stateDir } = store;
  if (!every([command, region ?? "", table ?? "", statusTable ?? "", stateDir ?? ""])) return undefined;
  if (table !== undefined || statusTable !== undefined) {
    const name = uses === "audit" ? table : statusTable;
    if (name === undefined) return undefined;
    const variable = uses === "audit" ? "AUDIT_TABLE" : "STATUS_TABLE";
    const where = region ? `AWS_REGION=${shellQuote(region)} ` : "";
    return `${where}${variable}=${shellQuote(name)} ${command}`;
  }
  return stateDir !== undefined ? `${command} ${shellOption("--state-dir", stateDir)}` : command;
}

/**
 * A command given whole (the run report's, which the caller builds with `reportCommand` or
 * words of its own) as every channel may show it: as it is, or undefined when it holds what
 * `pastable` refuses.
 */
export function pastableCommand(command: string): string | undefined {
  return pastable(command) ? command : undefined;
}

/**
 * The `fleet-auditor silences add` line that silences a group in `store`, its matchers the
 * group's exact values (`silencing` compares them as they are) as `formatMatcher` writes them
 * (in double quotes where `--match` would read a bare value otherwise), each `--match` one
 * quoted word; undefined for a group with no value to match (it would silence the whole audit),
 * or with a matcher `--match` would not read back as it is. Its comment says what was
 * acknowledged, so the line works pasted as it is (the CLI refuses a placeholder comment); the
 * author is whoever pastes it (`"$USER"` is meant to expand).
 *
 * @example silenceCommand({ audit: "failing", labels: [["state", "failed"], ["reason", "x y"], ["region", "eu-1"]] }, { stateDir: "/s" })
 * // fleet-auditor silences add --audit failing --match state=failed --match 'reason="x y"' --match region=eu-1 --for 4h --comment 'acknowledged: failed x y eu-1' --by "$USER" --state-dir /s
 */
export function silenceCommand(g: GroupMatch, store: CommandStore = {}): string | undefined {
  const shared = g.labels.filter(([, value]) => value);
  if (shared.length === 0) return undefined;
  const exact = shared.map(([name, value]): LabelMatcher => ({ name, op: "=", value }));
  const matchers = exact.map(formatMatcher);
  if (!every([g.audit, ...matchers]) || !exact.every(readsBack)) return undefined;
  const match = matchers.map((m) => `--match ${shellQuote(m)}`).join(" ");
  const comment = `acknowledged: ${shared.map(([, value]) => value).join(" ")}`;
  return inStore(
    `fleet-auditor silences add ${shellOption("--audit", g.audit)} ${match} --for 4h ${shellOption("--comment", comment)} --by "$USER"`,
    store,
    "audit",
  );
}

/**
 * `fleet-auditor silences add --incident KEY …`: silences one open incident, whatever its
 * `groupBy` (the CLI matches its labels); what a page suggests, since a pager's incident may
 * group by audit alone, with no value to match. Undefined when the key cannot be pasted.
 *
 * @example incidentSilenceCommand("failing", "inc-Xa3", {}) // fleet-auditor silences add --audit failing --incident inc-Xa3 --for 4h --comment 'acknowledged: incident inc-Xa3' --by "$USER"
 */
export function incidentSilenceCommand(
  audit: string,
  key: string,
  store: CommandStore = {},
): string | undefined {
  if (!every([audit, key])) return undefined;
  return inStore(
    `fleet-auditor silences add ${shellOption("--audit", audit)} ${shellOption("--incident", key)} --for 4h ${shellOption("--comment", `acknowledged: incident ${key}`)} --by "$USER"`,
    store,
    "audit",
  );
}

/**
 * `fleet-auditor runs show RUN_ID` against the store that holds it (`inStore`).
 *
 * @example reportCommand("run-1", { table: "fleet-audit" }) // AUDIT_TABLE=fleet-audit fleet-auditor runs show run-1
 */
export function reportCommand(runId: string, store: CommandStore = {}): string | undefined {
  return pastable(runId)
    ? inStore(`fleet-auditor runs show ${shellQuote(runId)}`, store, "audit")
    : undefined;
}

/**
 * What a message gives as the way to its run's report: `reportCommand`, or, for a run ID no
 * shell can take (a caller may choose one), the list of runs in the same store; "" (the message
 * then says only that the report holds it) when not even that can be pasted.
 */
export function runReportCommand(runId: string, store: CommandStore = {}): string {
  return reportCommand(runId, store) ?? inStore("fleet-auditor runs list", store, "audit") ?? "";
}

/**
 * Whether `--match` reads the matcher's text back to it: a label name the CLI refuses, or a value
 * no text can carry (a lone surrogate), would make a pasted line fail or silence something else.
 */
function readsBack(m: LabelMatcher): boolean {
  try {
    const [read, ...more] = parseMatchers(formatMatcher(m));
    return more.length === 0 && read?.name === m.name && read.op === m.op && read.value === m.value;
  } catch {
    return false;
  }
}

/**
 * `fleet-auditor incidents stats --since WINDOW` (with `--audit A` for one audit's) against
 * `store`: the figures an incident summary gives, and the rest of them. Undefined when a value
 * cannot be pasted.
 *
 * @example incidentStatsCommand("7d", { region: "eu-west-1", table: "audit" }) // AWS_REGION=eu-west-1 AUDIT_TABLE=audit fleet-auditor incidents stats --since 7d
 */
export function incidentStatsCommand(
  window: string,
  store: CommandStore = {},
  audit?: string,
): string | undefined {
  return incidentsCommand("stats", window, store, audit);
}

/**
 * `fleet-auditor incidents report --since WINDOW -o html > report.html` against `store`: the
 * window's incidents as one self-contained page. The redirection comes last, after the store's
 * `--state-dir`, so that the line pastes as one command.
 *
 * @example incidentReportCommand("7d", { table: "audit" }) // AUDIT_TABLE=audit fleet-auditor incidents report --since 7d -o html > report.html
 */
export function incidentReportCommand(
  window: string,
  store: CommandStore = {},
  audit?: string,
): string | undefined {
  const command = incidentsCommand("report", window, store, audit, " -o html");
  return command === undefined ? undefined : `${command} > report.html`;
}

function incidentsCommand(
  verb: "stats" | "report",
  window: string,
  store: CommandStore,
  audit: string | undefined,
  tail = "",
): string | undefined {
  if (!every([window, audit ?? ""])) return undefined;
  const narrowed = audit === undefined ? "" : ` ${shellOption("--audit", audit)}`;
  return inStore(
    `fleet-auditor incidents ${verb} ${shellOption("--since", window)}${narrowed}${tail}`,
    store,
    "audit",
  );
}
