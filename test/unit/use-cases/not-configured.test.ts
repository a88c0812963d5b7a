import { KebAuthError } from "@fleet-auditor/keb";
import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { HealthV1Schema } from "@fleet-auditor/render";
import {
  type AuditRunDeps,
  RunSummarySchema,
  runAudit,
  SecretUnreadableError,
} from "@fleet-auditor/use-cases";
import { beforeEach, describe, expect, it } from "vitest";
import { FleetSource, MemoryAuditStore, MemoryPublisher } from "../../helpers/memory-ports.ts";
import { withDeps } from "../../helpers/run-deps.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// Runs before the KEB client secret has a value: each says so in its result and its log, the
// operators hear it once, and nothing counts toward a degraded notice or the ledger.

const hour = (h: number): string => new Date(Date.UTC(2026, 10, 1, h)).toISOString();
const FLEET = generateFleet({ size: 60, seed: 3, flagged: 20 });
const SECRET =
  "arn:aws:secretsmanager:eu-central-1:123456789012:secret:fleet-auditor/prod/KebClientSecret-AbC123";

/** What the token fetch throws when Secrets Manager has no current value (as the SDK names it). */
function noValueYet(): KebAuthError {
  const sdk = Object.assign(
    new Error("Secrets Manager can't find the specified secret value for staging label: AWSCURRENT"),
    {
      name: "ResourceNotFoundException",
    },
  );
  const unreadable = new SecretUnreadableError("KEB_CLIENT_SECRET_ARN", SECRET, { cause: sdk });
  return new KebAuthError(unreadable.message, { cause: unreadable });
}

let source: FleetSource;
let store: MemoryAuditStore;
let publisher: MemoryPublisher;
let warnings: string[];
let deps: AuditRunDeps;
let configured: boolean;

beforeEach(() => {
  source = new FleetSource(new Fleet(structuredClone(FLEET)));
  configured = false;
  source.beforePage = () => {
    if (!configured) throw noValueYet();
  };
  store = new MemoryAuditStore();
  publisher = new MemoryPublisher();
  warnings = [];
  const log = { info: () => undefined, warn: (message: string) => warnings.push(message) };
  deps = {
    ports: { audits: testAudits({ client: source, log }), store, publisher },
    settings: { firstRun: "baseline", degradedAfterRuns: 2 },
    hooks: { log },
  };
});

const failing = (h: number, extra: Record<string, unknown> = {}) =>
  runAudit(withDeps(deps, { hooks: { clock: () => new Date(hour(h)) } }), {
    audit: "failing",
    scheduledTime: hour(h),
    ...extra,
  });

describe("a run whose KEB client secret has no value yet", () => {
  it("returns not-configured with one warning each, tells once, and never degrades or records", async () => {
    const runs = [];
    for (const h of [0, 1, 2, 3]) {
      const before = warnings.length;
      runs.push(await failing(h));
      expect(warnings.slice(before)).toEqual([
        "a secret this audit needs has no value yet: the run ends not-configured",
      ]);
    }
    for (const run of runs) {
      expect(RunSummarySchema.parse(run)).toEqual(run);
      expect(run).toMatchObject({ status: "not-configured", complete: false, flagged: 0, transitions: [] });
      expect(run.incompleteReason).toContain("KEB_CLIENT_SECRET_ARN");
    }
    expect(publisher.published).toHaveLength(1);
    const notice = HealthV1Schema.parse(
      JSON.parse(JSON.parse(publisher.published[0]?.message ?? "").default),
    );
    expect(notice).toMatchObject({ status: "not-configured", since: hour(0), badRuns: 0 });
    expect(publisher.published[0]?.topics).toEqual(["alerts", "incidents"]);
    expect(store.health.get("failing")).toMatchObject({ badRuns: 0, notConfigured: { since: hour(0) } });
    expect(store.ledger.size).toBe(0);
    expect(store.leases.size).toBe(0);
  });

  it("tells nobody from an ad-hoc run: the one who ran it reads the result", async () => {
    const adHoc = await runAudit(withDeps(deps, { hooks: { clock: () => new Date(hour(0)) } }), {
      audit: "failing",
    });
    expect(adHoc.status).toBe("not-configured");
    expect(publisher.published).toEqual([]);
    expect(store.health.get("failing")).toBeUndefined();
  });

  it("ends the episode at the first run that gets past the secret, which is the audit's baseline", async () => {
    await failing(0);
    configured = true;
    const first = await failing(1);
    expect(first).toMatchObject({ status: "completed", complete: true, baseline: true });
    expect(store.health.get("failing")?.notConfigured).toBeUndefined();
    configured = false;
    await failing(2);
    expect(publisher.published.map((m) => m.attributes.kinds)).toEqual([
      ["not-configured"],
      ["baseline"],
      ["not-configured"],
    ]);
  });

  it("is still a failure when Secrets Manager refuses for another reason: access denied counts toward degraded", async () => {
    source.beforePage = () => {
      const denied = Object.assign(new Error("not authorized to perform secretsmanager:GetSecretValue"), {
        name: "AccessDeniedException",
      });
      const unreadable = new SecretUnreadableError("KEB_CLIENT_SECRET_ARN", SECRET, { cause: denied });
      throw new KebAuthError(unreadable.message, { cause: unreadable });
    };
    const run = await failing(0);
    expect(run.status).toBe("completed");
    expect(run.complete).toBe(false);
    expect(run.incompleteCode).toBe("KEB_AUTH");
    expect(store.health.get("failing")?.badRuns).toBe(1);
  });
});
