import { pastable, shellOption, shellQuote } from "./shell.ts";

// The commands messages suggest, one function each: every channel (e-mail, Chatbot, Slack)
// calls the same one, so all show the same text. Each gives undefined when a value it would hold
// cannot be pasted safely (`pastable`): the command is then left out, never cut or flattened,
// since a changed value would inspect or silence something else.

/** What a group of findings shares, as silence matchers: a group as the engine or a digest has it. */
export interface GroupMatch {
  audit: string;
  state: string;
  /** "" or absent: the group has no reason, and the silence matches any. */
  reason?: string;
  /** The group's other labels and values (`TransitionGroup.place`); blank ones match any. */
  place: ReadonlyArray<readonly [label: string, value: string]>;
}

/** Where the run reports live, as the report command must name it (else the default store). */
export interface ReportStore {
  /** The audit table (`AUDIT_TABLE`), for a deployed store. */
  table?: string;
  /** The embedded store's directory (`--state-dir`). */
  stateDir?: string;
}

const every = (values: readonly string[]): boolean => values.every(pastable);

/**
 * A command given whole (the run report's, which the caller builds with `reportCommand` or
 * words of its own) as every channel may show it: as it is, or undefined when it holds what
 * `pastable` refuses.
 */
export function pastableCommand(command: string): string | undefined {
  return pastable(command) ? command : undefined;
}

/**
 * The `fleet-auditor silences add` line that silences a group, its matchers the group's exact
 * values (`silencing` compares them as they are), each `--match` one quoted word.
 *
 * @example silenceCommand({ audit: "failing", state: "failed", place: [["region", "eu-1"]], reason: "x y" })
 * // fleet-auditor silences add --audit failing --match state=failed --match region=eu-1 --match 'reason=x y' --for 4h --comment "..." --by "$USER"
 */
export function silenceCommand(g: GroupMatch): string | undefined {
  const matchers = [
    `state=${g.state}`,
    ...g.place.filter(([, value]) => value).map(([label, value]) => `${label}=${value}`),
    ...(g.reason ? [`reason=${g.reason}`] : []),
  ];
  if (!every([g.audit, ...matchers])) return undefined;
  const match = matchers.map((m) => `--match ${shellQuote(m)}`).join(" ");
  // `"$USER"` is meant to expand: the silence's author is whoever pastes it.
  return `fleet-auditor silences add ${shellOption("--audit", g.audit)} ${match} --for 4h --comment "..." --by "$USER"`;
}

/**
 * `fleet-auditor runs show RUN_ID`, naming the store it reads: `AUDIT_TABLE=… ` before it for a
 * deployed table, `--state-dir …` after it for an embedded one.
 *
 * @example reportCommand("run-1", { table: "fleet-audit" }) // AUDIT_TABLE=fleet-audit fleet-auditor runs show run-1
 */
export function reportCommand(runId: string, store: ReportStore = {}): string | undefined {
  const { table, stateDir } = store;
  if (!every([runId, table ?? "", stateDir ?? ""])) return undefined;
  const show = `fleet-auditor runs show ${shellQuote(runId)}`;
  if (table !== undefined) return `AUDIT_TABLE=${shellQuote(table)} ${show}`;
  return stateDir !== undefined ? `${show} ${shellOption("--state-dir", stateDir)}` : show;
}
