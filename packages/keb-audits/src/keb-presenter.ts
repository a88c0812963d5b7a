import {
  type AlertDetail,
  type DigestV1Row,
  type Finding,
  humanDuration,
  labelOf,
  lastedFor,
  oneLine,
  type Presenter,
  pastable,
  shellOption,
  shortTime,
  stateOf,
  type Transition,
} from "@fleet-auditor/audit";
import { kebDetail } from "./keb-finding.ts";

// A KEB runtime in messages: placed by plan, region and shoot, told by its failing operation.

const label = (f: Finding, name: string): string => labelOf(f.labels, name);

/** `aws eu-central-1 shoot c-1a2b3c4` with the blanks KEB leaves on early failures shown as `-`. */
function placement(f: Finding): string {
  return `${oneLine(label(f, "plan"), 40) || "-"} ${oneLine(label(f, "region"), 40) || "-"} shoot ${oneLine(label(f, "shoot"), 40) || "-"}`;
}

function operationText(f: Finding): string {
  const op = kebDetail(f).operation;
  if (!op) return `state ${oneLine(stateOf(f), 40)}`;
  const where = [
    op.errorStep && `step ${oneLine(op.errorStep, 80)}`,
    op.errorComponent && `component ${oneLine(op.errorComponent, 80)}`,
    op.errorReason && `reason ${oneLine(op.errorReason, 80)}`,
  ]
    .filter(Boolean)
    .join(", ");
  return `${op.kind} ${oneLine(op.state, 40)}${op.updatedAt ? ` at ${oneLine(op.updatedAt, 40)}` : ""}${where ? ` (${where})` : ""}`;
}

function reasonText(f: Finding): string {
  const op = kebDetail(f).operation;
  const reason = op?.errorReason || op?.errorStep;
  return reason ? ` (${oneLine(reason, 80)})` : "";
}

function lines(t: Transition, at: string, brief: boolean): string[] {
  const f = t.finding;
  const { expiredAt, operation } = kebDetail(f);
  const age = humanDuration(Date.parse(at) - Date.parse(t.since));
  const since = `since ${shortTime(t.since)} (${age})`;
  if (t.kind === "resolved") {
    const ending = t.ending ? `now ${oneLine(t.ending, 60)}` : "how it ended is unknown (KEB lookup failed)";
    return [
      `- resolved ${lastedFor(age)}: ${placement(f)}, was ${oneLine(stateOf(f), 40)}${reasonText(f)}, ${ending}`,
      `    instance ${oneLine(f.key, 60)}`,
    ];
  }
  if (brief)
    return [`- [${t.severity}] still ${oneLine(stateOf(f), 40)}${reasonText(f)} ${since}: ${placement(f)}`];
  const state =
    t.kind === "changed" && t.previousState && t.previousState !== t.state
      ? `${oneLine(t.previousState, 40)} -> ${oneLine(t.state, 40)}`
      : oneLine(t.state, 40);
  const runtime = label(f, "runtime");
  const out = [
    `- [${t.severity}] ${state}: ${placement(f)}, ${since}`,
    `    instance ${oneLine(f.key, 60)}${runtime ? `, runtime ${oneLine(runtime, 60)}` : ""}`,
    `    global account ${oneLine(label(f, "account"), 60) || "-"}, subaccount ${oneLine(label(f, "subaccount"), 60) || "-"}`,
  ];
  if (expiredAt) out.push(`    expired at ${oneLine(expiredAt, 40)}`);
  if (t.kind === "changed" && t.previous) out.push(`    was: ${operationText(t.previous)}`);
  if (operation) {
    out.push(`    ${t.kind === "changed" ? "now" : "last operation"}: ${operationText(f)}`);
    if (operation.description) out.push(`    description: ${oneLine(operation.description, 300)}`);
    const steps = operation.notCompletedSteps;
    if (steps?.length) out.push(`    steps not completed: ${oneLine(steps.join(", "), 300)}`);
  }
  return out;
}

/** Digest v1's fields of a KEB finding: the runtime, its expiry and failing operation. */
function v1Row(f: Finding): DigestV1Row {
  const { expiredAt, operation } = kebDetail(f);
  return {
    instanceID: f.key,
    runtimeID: label(f, "runtime"),
    shootName: label(f, "shoot"),
    globalAccountID: label(f, "account"),
    subAccountID: label(f, "subaccount"),
    plan: label(f, "plan"),
    region: label(f, "region"),
    provider: label(f, "provider"),
    ...(expiredAt !== undefined ? { expiredAt } : {}),
    ...(operation ? { operation } : {}),
  };
}

/** What a pager and a chat list of a runtime: KEB's description first, then where it is. */
function details(f: Finding): AlertDetail[] {
  const { expiredAt, operation } = kebDetail(f);
  const out: AlertDetail[] = [];
  if (operation?.description) out.push({ name: "description", value: operation.description });
  if (operation) out.push({ name: "operation", value: `${operation.kind} ${operation.state}` });
  if (expiredAt) out.push({ name: "expired at", value: expiredAt });
  out.push(
    { name: "shoot", value: label(f, "shoot") },
    { name: "region", value: label(f, "region") },
    { name: "instance", value: f.key },
  );
  return out.filter((d) => d.value);
}

/** The presenter of the KEB audits (`failing`, `expired`). */
export const kebPresenter: Presenter = {
  tally: { label: "plan", word: "plans" },
  noun: () => "runtimes",
  placeWord: "in",
  placeLabel: "region",
  example: (f) => `shoot ${oneLine(label(f, "shoot"), 40) || "-"} (instance ${oneLine(f.key, 60)})`,
  lines,
  groupNote(f) {
    const description = kebDetail(f).operation?.description;
    return description ? `description: ${oneLine(description, 300)}` : undefined;
  },
  // State and reason first: a title cut at its end loses the shoot and region before the reason.
  subject: (t, state, reason) =>
    `${state}${reason ? ` (${reason})` : ""} shoot ${t.finding.summary || t.finding.key} in ${label(t.finding, "region") || "-"}`,
  chatNote(f) {
    const op = kebDetail(f).operation;
    return op ? `${op.kind} ${op.state}: ${op.description}` : undefined;
  },
  inspect: (f) => (pastable(f.key) ? `kcp rt ${shellOption("-i", f.key)} --ops -o json` : undefined),
  problemKey(f) {
    const { expiredAt, operation: op } = kebDetail(f);
    return [stateOf(f), expiredAt ?? "", op?.operationID ?? "", op?.state ?? ""].join("|");
  },
  // The names link templates used before labels.
  linkValues: (f) => ({
    instanceID: f.key,
    runtimeID: label(f, "runtime"),
    shootName: label(f, "shoot"),
    globalAccountID: label(f, "account"),
    subAccountID: label(f, "subaccount"),
  }),
  details,
  digestV1: { row: v1Row, group: {} },
};
