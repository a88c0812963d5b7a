import {
  type AlertDetail,
  type Finding,
  humanDuration,
  inStore,
  lastedFor,
  oneLine,
  type Presenter,
  pastable,
  shellOption,
  shortTime,
  stateOf,
  type Transition,
} from "@fleet-auditor/audit";
import type { EdgeDetail } from "./edge-detail.ts";
import { edgeDetail } from "./edge-finding.ts";

// An edge finding in messages: placed by its node, told by what it is (a stuck Application, a
// node's refusals, quarantined messages).

const NOUNS: Readonly<Record<string, string>> = {
  stuck: "Applications",
  refused: "refusal kinds",
  quarantined: "quarantine codes",
};

const HOW_IT_ENDED: Record<EdgeDetail["what"], string> = {
  stuck: "it completed, was answered or aged out",
  refused: "the node's refusals fell below the threshold",
  quarantined: "no more messages quarantined in the window",
};

function placement(f: Finding): string {
  const node = edgeDetail(f).node;
  return node ? `node ${oneLine(node, 60)}: ${oneLine(f.summary, 160)}` : oneLine(f.summary, 160);
}

function lines(t: Transition, at: string, brief: boolean): string[] {
  const f = t.finding;
  const e = edgeDetail(f);
  const age = humanDuration(Date.parse(at) - Date.parse(t.since));
  if (t.kind === "resolved") {
    return [
      `- resolved ${lastedFor(age)}: ${placement(f)}, was ${oneLine(stateOf(f), 40)}; ${HOW_IT_ENDED[e.what]}`,
    ];
  }
  const since = `since ${shortTime(t.since)} (${age})`;
  if (brief) return [`- [${t.severity}] still ${oneLine(stateOf(f), 40)} ${since}: ${placement(f)}`];
  const out = [`- [${t.severity}] ${oneLine(stateOf(f), 40)}: ${placement(f)}, ${since}`];
  if (e.what === "stuck") {
    out.push(
      `    Application ${oneLine(f.key.replace(/^app:/, ""), 80)}: ${oneLine(e.status ?? "", 40)} since ${shortTime(e.since ?? t.since)}, resource ${oneLine(e.resource, 60) || "-"}`,
    );
  }
  if (e.what === "refused") {
    out.push(`    requests: ${oneLine((e.requests ?? []).join(", "), 200)}; e.g. ${oneLine(e.key, 120)}`);
  }
  return out;
}

/** The presenter of the applications audit. */
export const edgePresenter: Presenter = {
  tally: { label: "verb", word: "verbs" },
  noun: (state) => NOUNS[state] ?? "findings",
  placeWord: "on node",
  placeLabel: "node",
  example: (f) => oneLine(f.summary, 80),
  lines,
  groupNote: () => undefined,
  // The state, reason and node first: the Application's key is long, and a title is cut at its end.
  subject(t, state, reason) {
    const node = edgeDetail(t.finding).node;
    return `${state}${reason ? ` (${reason})` : ""}${node ? ` on node ${node}` : ""}, ${t.finding.summary}`;
  },
  chatNote(f, since) {
    const e = edgeDetail(f);
    return e.status ? `${e.status} since ${shortTime(e.since ?? since)}` : undefined;
  },
  inspect(f, store) {
    const e = edgeDetail(f);
    if (e.what === "quarantined") return inStore("fleet-auditor apps quarantine", store, "status");
    if (!pastable(e.node)) return undefined;
    return inStore(`fleet-auditor apps status ${shellOption("--node", e.node)}`, store, "status");
  },
  // A refusal's count moves every run; only what it is (and a stuck Application's status) matters.
  problemKey(f) {
    const e = edgeDetail(f);
    return [stateOf(f), e.status ?? "", e.reason].join("|");
  },
  // Before labels an edge finding kept its node as `region`, and templates named the key `{key}`.
  linkValues(f) {
    const e = edgeDetail(f);
    return { region: e.node, key: e.key };
  },
  details(f) {
    const e = edgeDetail(f);
    const out: AlertDetail[] = [
      { name: "node", value: e.node },
      { name: "status", value: e.status ?? "" },
      { name: "requests", value: (e.requests ?? []).join(", ") },
      { name: "key", value: e.key },
    ];
    return out.filter((d) => d.value);
  },
  // As v1 was written: the verb as the plan, the node as the region, the detail as `edge`.
  digestV1: {
    row: (f) => {
      const e = edgeDetail(f);
      return {
        instanceID: f.key,
        runtimeID: "",
        shootName: f.summary,
        globalAccountID: "",
        subAccountID: "",
        plan: e.verb,
        region: e.node,
        provider: "kubeedge",
        edge: e,
      };
    },
    group: { edge: true },
  },
};
