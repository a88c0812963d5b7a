import type { AuditDefinition } from "./audit-definition.ts";
import { bounded, type Finding } from "./finding.ts";
import type { FlatFinding, Presenter } from "./presenter.ts";

// The flat form (records before labels, digest v1 rows) was written by the KEB audits and the
// edge's, whose presenters are plug-ins now: the engine reads a record before labels as they
// built their findings, and a caller that renders the form names the audits it knows, whose
// presenters read it (the edge-marked ones take only their own, so they are asked first).

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/** A KEB runtime's reason label: its operation's error reason, else its failing step. */
function kebReason(op: Record<string, unknown> | undefined): string {
  const steps = op?.notCompletedSteps;
  return (
    text(op?.errorReason) ||
    text(op?.errorStep) ||
    (Array.isArray(steps) && steps.length ? "steps-not-completed" : "")
  );
}

/** An edge finding's labels from its detail, as the edge audit builds them. */
function edgeFinding(flat: FlatFinding, e: Record<string, unknown>): Finding {
  const [, , , , namespace = "", name = ""] = text(e.key).split("/");
  const part = (v: string): string => (v === "null" ? "" : v);
  const what = text(e.what);
  return {
    key: flat.instanceID,
    labels: {
      node: text(e.node),
      verb: text(e.verb),
      resource: text(e.resource),
      namespace: part(namespace),
      name: part(name),
      status: text(e.status),
      state: what,
      reason: text(e.reason),
      code: e.code ? String(e.code) : "",
    },
    severity: what === "quarantined" ? "info" : "warning",
    ...(text(e.since) ? { startsAt: text(e.since) } : {}),
    summary: bounded(flat.shootName, 400),
    detail: e,
  };
}

/** A finding written before labels, as the audit that wrote it (KEB's or the edge's) built it. */
export function fromFlat(flat: FlatFinding): Finding {
  if (flat.edge !== undefined && flat.edge !== null)
    return edgeFinding(flat, flat.edge as Record<string, unknown>);
  const operation = flat.operation as Record<string, unknown> | undefined;
  return {
    key: flat.instanceID,
    labels: {
      instance: flat.instanceID,
      runtime: flat.runtimeID,
      shoot: flat.shootName,
      account: flat.globalAccountID,
      subaccount: flat.subAccountID,
      plan: flat.plan,
      region: flat.region,
      provider: flat.provider,
      state: flat.state,
      reason: kebReason(operation),
    },
    severity: flat.severity,
    summary: flat.shootName,
    detail: {
      ...(flat.expiredAt !== undefined ? { expiredAt: flat.expiredAt } : {}),
      ...(operation !== undefined ? { operation } : {}),
    },
  };
}

/** The presenters of `audits`, each once, the edge-marked ones first. */
function flatReaders(audits: readonly AuditDefinition[]): Presenter[] {
  const all = [...new Set(audits.map((a) => a.presenter))];
  return [...all.filter((p) => p.v1GroupMark.edge), ...all.filter((p) => !p.v1GroupMark.edge)];
}

/**
 * The presenter of a structured digest v1 group: its audit's own, when the audit is one of
 * `audits` and marks its groups as the group is marked; else, as v1 was written by the KEB and
 * edge audits, the first of `audits`' presenters that marks its groups so (the edge mark when
 * the group or a member carries it).
 */
export function digestPresenter(
  audit: string,
  audits: readonly AuditDefinition[],
  group: { edge?: true | undefined },
  members: ReadonlyArray<{ edge?: unknown }>,
): Presenter {
  const edge = Boolean(group.edge || members.some((t) => t.edge !== undefined));
  const own = audits.find((a) => a.name === audit)?.presenter;
  if (own && Boolean(own.v1GroupMark.edge) === edge) return own;
  const marked = flatReaders(audits).find((p) => Boolean(p.v1GroupMark.edge) === edge);
  const chosen = marked ?? own ?? audits[0]?.presenter;
  if (!chosen) throw new TypeError("a digest v1 group with no audit known to render it");
  return chosen;
}

/**
 * A digest v1 row as a finding: read by `presenter` when it can, else by the first of `audits`'
 * presenters that can.
 */
export function readRow(
  row: FlatFinding,
  presenter: Presenter,
  audits: readonly AuditDefinition[],
): { finding: Finding; presenter: Presenter } {
  for (const p of [presenter, ...flatReaders(audits)]) {
    const finding = p.fromFlat(row);
    if (finding) return { finding, presenter: p };
  }
  return { finding: fromFlat(row), presenter };
}
