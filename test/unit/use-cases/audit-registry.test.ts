import { UnknownAuditError } from "@fleet-auditor/audit";
import { failingAudit, kebAudits } from "@fleet-auditor/keb-audits";
import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { kubeedgeAudit } from "@fleet-auditor/kubeedge-audit";
import { AuditRegistry, ConfigError } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { FleetSource } from "../../helpers/memory-ports.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// The audits a process knows are the plug-ins its composition root registers: the use cases
// have no list of their own, and a plug-in built without what its source reads fails only when
// a run asks for that source, naming the variable, as the functions did before plug-ins.

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (err) {
    return err;
  }
  return undefined;
};

describe("the audit registry", () => {
  it("names the known audits, in the order registered, for an unknown one", () => {
    const audits = new AuditRegistry([...kebAudits(), kubeedgeAudit()]);
    expect(audits.names).toEqual(["failing", "expired", "applications"]);
    const err = thrown(() => audits.named("broken"));
    expect(err).toBeInstanceOf(UnknownAuditError);
    expect((err as Error).message).toMatch(/known: failing, expired, applications$/);
    expect(() => new AuditRegistry(kebAudits()).named("applications")).toThrow(/known: failing, expired$/);
  });

  it("gives each audit's labels, as silences and GROUP_BY_<AUDIT> may name them", () => {
    const audits = testAudits();
    expect(audits.labelsOf("failing")).toContain("subaccount");
    expect(audits.labelsOf("applications")).toContain("node");
    expect(audits.labelsOf("applications")).not.toContain("region");
  });

  it("regroups an audit as its GROUP_BY_<AUDIT> says, and per runtime only those whose findings have an instance", () => {
    const audits = testAudits({
      grouping: { groupBy: new Map([["expired", ["plan"]]]), NOTIFY_MODE: "per-runtime" },
    });
    expect(audits.named("failing").audit.groupBy).toEqual(["instance"]);
    expect(audits.named("expired").audit.groupBy).toEqual(["plan"]);
    expect(audits.named("applications").audit.groupBy).toEqual(["state", "node", "reason"]);
    // The definition itself is left as it is: another registry groups it its own way.
    expect(failingAudit.groupBy).toEqual(["state", "reason", "region"]);
  });

  it("refuses two audits of one name", () => {
    expect(() => new AuditRegistry([...kebAudits(), ...kebAudits()])).toThrow(ConfigError);
  });

  it("fails a plug-in's source without what it reads, naming the variable", () => {
    const audits = testAudits();
    const keb = thrown(() => audits.named("expired").source());
    expect(keb).toBeInstanceOf(ConfigError);
    expect((keb as ConfigError).variables).toEqual(["KEB_URL"]);
    const edge = thrown(() => audits.named("applications").source());
    expect(edge).toBeInstanceOf(ConfigError);
    expect((edge as ConfigError).variables).toEqual(["STATUS_TABLE"]);
  });

  it("reads with what the plug-in was given", () => {
    const client = new FleetSource(new Fleet(generateFleet({ size: 10, seed: 1, flagged: 2 })));
    const source = testAudits({ client }).named("failing").source();
    expect(source.filterable).toBe(true);
    expect(source.listedWhat).toBe("runtimes");
  });
});
