import type { Finding } from "./finding.ts";
import { reasonOf } from "./finding.ts";

/**
 * URL templates for links in messages. Placeholders: `{instanceID}`, `{runtimeID}`,
 * `{shootName}`, `{globalAccountID}`, `{subAccountID}`, `{region}`, `{reason}`, `{runId}`, and
 * for the applications audit `{node}`, `{verb}`, `{resource}`, `{key}`; values are URL-encoded. A template whose placeholder has no value gives no link.
 */
export interface LinkTemplates {
  /** A runtime's console or dashboard page, e.g. `https://dash.example/runtimes/{instanceID}`. */
  runtime?: string;
  /** The runbook of an error reason, e.g. `https://wiki.example/runbooks/{reason}`. */
  runbook?: string;
  /** The run report, e.g. a console page that runs `{ "show": "{runId}" }`. */
  report?: string;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** Fills a template; undefined when it is absent or a placeholder it uses has no value. */
export function fillTemplate(
  template: string | undefined,
  values: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (!template) return undefined;
  let missing = false;
  const url = template.replace(PLACEHOLDER, (_, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (!value) missing = true;
    return encodeURIComponent(value ?? "");
  });
  return missing ? undefined : url;
}

/** The template values of a finding; an edge finding has no runtime, so no runtime link. */
export function findingValues(f: Finding): Record<string, string | undefined> {
  if (f.edge) {
    const { node, verb, resource, key } = f.edge;
    return { region: f.region, reason: reasonOf(f), node, verb, resource, key };
  }
  return {
    instanceID: f.instanceID,
    runtimeID: f.runtimeID,
    shootName: f.shootName,
    globalAccountID: f.globalAccountID,
    subAccountID: f.subAccountID,
    region: f.region,
    reason: reasonOf(f),
  };
}

/** The command that shows a finding's subject: `kcp` for a runtime, `fleet-auditor apps status` for the edge. */
export function kcpCommand(f: Finding): string {
  if (f.edge?.what === "quarantined") return "fleet-auditor apps quarantine";
  if (f.edge) return `fleet-auditor apps status --node ${shellWord(f.edge.node)}`;
  return `kcp rt -i ${f.instanceID} --ops -o json`;
}

/** What a group of runtimes shares, as silence matchers. */
export interface GroupMatch {
  audit: string;
  state: string;
  region: string;
  reason?: string;
  /** The group is of edge findings: its "region" is a node. */
  edge?: boolean;
}

/** The `fleet-auditor silences add` line that would silence a group (the reason is a matcher too). */
export function silenceCommand(g: GroupMatch): string {
  const match = [
    `state=${g.state}`,
    g.region ? `${g.edge ? "node" : "region"}=${g.region}` : "",
    g.reason ? `reason=${g.reason}` : "",
  ]
    .filter(Boolean)
    .map((m) => `--match ${shellWord(m)}`)
    .join(" ");
  return `fleet-auditor silences add --audit ${g.audit} ${match} --for 4h --comment "..." --by "$USER"`;
}

/** A word safe to paste into a POSIX shell. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'"'"'`)}'`;
}
