import { planNotification, type Transition } from "@fleet-auditor/audit";
import { describe, expect, it } from "vitest";
import { ctx, editedT, t } from "../../helpers/transitions.ts";

// The plan every channel renders: which incidents are told, in what order, each member with its
// links and inspect command, and each group with how to silence it and what it changed from.

const plan = (
  transitions: Transition[],
  refs = transitions.map((_, i) => i),
  over: Partial<typeof ctx> = {},
) => planNotification({ ...ctx, ...over }, transitions, refs);

/** A transition of runtime `i` in region `region` with reason `reason` (one group per pair). */
const inGroup = (
  i: number,
  kind: Transition["kind"],
  region: string,
  reason = "err_quota",
  severity?: "warning",
) => t(i, kind, { region, reason, ...(severity ? { severity } : {}) });

describe("planNotification", () => {
  it("tells new incidents, then changed, reminders and resolutions; within a kind the most severe, then the largest", () => {
    const transitions = [
      inGroup(1, "resolved", "r-resolved"),
      inGroup(2, "reminder", "r-reminder"),
      inGroup(3, "changed", "r-changed"),
      inGroup(4, "firing", "r-warning", "err_quota", "warning"),
      inGroup(5, "firing", "r-warning", "err_quota", "warning"),
      inGroup(6, "firing", "r-warning", "err_quota", "warning"),
      inGroup(7, "firing", "r-small"),
      inGroup(8, "firing", "r-large"),
      inGroup(9, "firing", "r-large"),
    ];
    const { groups } = plan(transitions);
    expect(groups.map((g) => [g.kind, g.severity, g.labels.region, g.members.length])).toEqual([
      ["firing", "critical", "r-large", 2],
      ["firing", "critical", "r-small", 1],
      ["firing", "warning", "r-warning", 3],
      ["changed", "critical", "r-changed", 1],
      ["reminder", "critical", "r-reminder", 1],
      ["resolved", "critical", "r-resolved", 1],
    ]);
  });

  it("plans only the transitions it is given, each once, told in its group's member order", () => {
    const transitions = [inGroup(1, "firing", "a"), inGroup(2, "firing", "a"), inGroup(3, "firing", "b")];
    const { groups, order } = plan(transitions, [0, 2]);
    const told = groups.flatMap((g) => g.told);
    expect(told.map((m) => m.ref).sort()).toEqual([0, 2]);
    for (const m of told) expect(m.transition).toBe(transitions[m.ref]);
    expect(groups.map((g) => g.told.map((m) => m.ref))).toEqual(groups.map((g) => g.members));
    expect([...order].sort()).toEqual([0, 2]);
  });

  it("orders members round-robin over the groups: every incident's first before any incident's second", () => {
    // Three groups of 3, 1 and 2 members; members are oldest first within a group.
    const transitions = [
      inGroup(1, "firing", "a"),
      inGroup(2, "firing", "a"),
      inGroup(3, "firing", "a"),
      inGroup(4, "firing", "b"),
      inGroup(5, "firing", "c"),
      inGroup(6, "firing", "c"),
    ];
    const { groups, order } = plan(transitions);
    const [a, c, b] = groups.map((g) => g.members);
    expect(groups.map((g) => g.labels.region)).toEqual(["a", "c", "b"]);
    expect(order).toEqual([a?.[0], c?.[0], b?.[0], a?.[1], c?.[1], a?.[2]]);
    expect(new Set(order).size).toBe(transitions.length);
  });

  it("fills each member's console and runbook links from the templates, and leaves them out without templates", () => {
    const transitions = [inGroup(1, "firing", "eu-central-1", "err_quota")];
    const [member] = plan(transitions).groups[0]?.told ?? [];
    expect(member?.links).toEqual({
      runtime: "https://console.example/runtimes/instance-00001",
      runbook: "https://runbooks.example/err_quota",
    });
    const [bare] = plan(transitions, [0], { links: undefined }).groups[0]?.told ?? [];
    expect(bare?.links).toEqual({});
  });

  it("gives each member the presenter's inspect command, and none when its key cannot be pasted", () => {
    const transitions = [
      inGroup(1, "firing", "a"),
      editedT(inGroup(2, "firing", "a"), () => ({ instanceID: "x\ny" })),
    ];
    const told = plan(transitions).groups.flatMap((g) => g.told);
    expect(told.find((m) => m.ref === 0)?.inspect).toBe("kcp rt -i instance-00001 --ops -o json");
    const unpastable = told.find((m) => m.ref === 1);
    expect(unpastable).toBeDefined();
    expect(unpastable).not.toHaveProperty("inspect");
  });

  it("gives every group but a resolution the command that silences it, in the run's store", () => {
    const transitions = [
      inGroup(1, "firing", "eu-central-1", "err_quota"),
      inGroup(2, "reminder", "eu-central-1", "err_quota"),
      inGroup(3, "resolved", "eu-central-1", "err_quota"),
    ];
    const { groups } = plan(transitions, undefined, { store: { table: "fleet-audit" } });
    expect(groups.map((g) => g.kind)).toEqual(["firing", "reminder", "resolved"]);
    const command =
      "AUDIT_TABLE=fleet-audit fleet-auditor silences add --audit failing --match state=failed --match reason=err_quota --match region=eu-central-1 --for 4h --comment 'acknowledged: failed err_quota eu-central-1' --by \"$USER\"";
    expect(groups[0]?.silence).toBe(command);
    expect(groups[1]?.silence).toBe(command);
    expect(groups[2]).not.toHaveProperty("silence");
  });

  it("tells what a changed group's members were before, most first, and gives no other group a from", () => {
    const was = (i: number, state: string, reason: string): Transition => {
      const now = inGroup(i, "changed", "eu-central-1", "err_quota");
      return { ...now, previous: t(i, "firing", { state, reason }).finding, previousState: state };
    };
    const transitions = [
      was(1, "failed", "err_keb_timeout"),
      was(2, "error", "err_provisioning"),
      was(3, "error", "err_provisioning"),
      // Without the finding it was, the state the snapshot kept.
      { ...inGroup(4, "changed", "eu-central-1", "err_quota"), previousState: "error" },
      inGroup(5, "firing", "eu-central-1", "err_quota"),
    ];
    const { groups } = plan(transitions);
    const changed = groups.find((g) => g.kind === "changed");
    expect(changed?.members).toHaveLength(4);
    expect(changed?.from).toEqual([
      ["error (err_provisioning)", 2],
      ["error", 1],
      ["failed (err_keb_timeout)", 1],
    ]);
    expect(groups.find((g) => g.kind === "firing")).not.toHaveProperty("from");
  });
});
