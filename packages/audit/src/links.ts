import type { Finding } from "./finding.ts";
import { reasonOf } from "./finding.ts";

/**
 * URL templates for links in messages. Placeholders: `{instanceID}`, `{runtimeID}`,
 * `{shootName}`, `{globalAccountID}`, `{subAccountID}`, `{region}`, `{reason}`, `{runId}`;
 * values are URL-encoded. A template whose placeholder has no value gives no link.
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

/** The template values of a finding. */
export function findingValues(f: Finding): Record<string, string | undefined> {
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

/** The `kcp` command that shows a runtime with its operations. */
export function kcpCommand(f: Finding): string {
  return `kcp rt -i ${f.instanceID} --ops -o json`;
}

/** What a group of runtimes shares, as silence matchers. */
export interface GroupMatch {
  audit: string;
  state: string;
  region: string;
  reason?: string;
}

/** The `fleet-auditor silences add` line that would silence a group (the reason is a matcher too). */
export function silenceCommand(g: GroupMatch): string {
  const match = [
    `state=${g.state}`,
    g.region ? `region=${g.region}` : "",
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
