import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runArgs, cli as runCommandLine } from "../helpers/cli.ts";
import { useKebSimulator } from "../helpers/keb.ts";
import { onLoopback } from "../helpers/loopback.ts";

const kit = useKebSimulator({ fleet: { size: 500, seed: 77, flagged: 45 } });
afterEach(() => kit.sim.faults.clear());
// Auth for every run: a static token, unless a test overrides it.
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCommandLine(args, { env: { KEB_TOKEN: "local-token", ...env } });

describe("fleet-auditor run", () => {
  it("prints exactly the run summary as JSON, keeps state between runs and writes the outbox", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-cli-"));
    const first = await cli(runArgs("failing", kit.sim.url, dir, "--output", "json"));
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout);
    expect(summary).toMatchObject({ audit: "failing", status: "completed", complete: true, dryRun: false });
    expect(summary.transitions.length).toBeGreaterThan(0);
    const outbox = readFileSync(join(dir, "outbox.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    // One outbox for every topic: the run's digest, each incident's message, the pager's.
    expect(Object.keys(outbox[0]).sort()).toEqual(["attributes", "message", "subject", "topics"]);
    expect(outbox[0]).toMatchObject({
      attributes: { audit: "failing", kinds: ["firing"], format: "digest" },
      topics: ["alerts"],
    });
    const topics = outbox.slice(1).map((l) => `${l.attributes.format} ${l.topics.join(",")}`);
    expect(new Set(topics)).toEqual(new Set(["incident incidents", "incident critical"]));

    const second = await cli(runArgs("all", kit.sim.url, dir, "--output", "json"));
    const both = JSON.parse(second.stdout);
    // `all` on the embedded store: the KEB audits and the applications audit (an empty table here).
    expect(both.map((s: { audit: string }) => s.audit)).toEqual(["failing", "expired", "applications"]);
    expect(both[0].transitions).toEqual([]);
    expect(both[2]).toMatchObject({ complete: true, flagged: 0 });
  });

  it("runs the applications audit over what apps ingest wrote, without KEB, and tells it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-cli-apps-"));
    const now = Date.now();
    const lines = [0, 1, 2, 3, 4, 5].map((i) =>
      JSON.stringify({
        header: { msg_id: `m${i}`, timestamp: now - (i === 0 ? 30 : 2) * 60_000 },
        route: { resource: "node/edge-17/null" },
        content: {
          ID: `app-${i}`,
          Key: "/core/v1/services/null/null",
          Verb: "list",
          Nodename: "edge-17",
          Status: i === 0 ? "InApplying" : "Rejected",
          Error: { ErrStatus: { status: "Failure", reason: "Forbidden", code: 403, message: "forbidden" } },
        },
      }),
    );
    const ingested = await runCommandLine(["apps", "ingest", "-", "--state-dir", dir], {
      stdin: lines.join("\n"),
    });
    expect(ingested.code, ingested.stderr).toBe(0);
    // No KEB_URL, no token: the applications audit reads only the status table.
    const out = await runCommandLine([
      "run",
      "--audit",
      "applications",
      "--state-dir",
      dir,
      "--output",
      "json",
    ]);
    expect(out.code, out.stderr).toBe(0);
    const summary = JSON.parse(out.stdout);
    expect(summary.transitions.map((t: { instanceID: string }) => t.instanceID).sort()).toEqual([
      "app:app-0",
      "refusals:edge-17:403:Forbidden",
    ]);
    const [told] = readFileSync(join(dir, "outbox.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(JSON.parse(told.message).email).toContain("node edge-17: 5 × 403 Forbidden on list services");
    // The same audit on AWS state without the status table would read an empty local one.
    const refused = await runCommandLine(["run", "--audit", "applications", "--state-dir", dir], {
      env: { AUDIT_TABLE: "t", ALERT_TOPIC_ARN: "arn:aws:sns:eu-central-1:123456789012:alerts" },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("STATUS_TABLE");
  });

  it("prints a table with the queries and transitions, and honours --dry-run and --filter", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-cli-"));
    const out = await cli(runArgs("failing", kit.sim.url, dir, "--dry-run", "--filter", "plan=aws"));
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("failing: completed (dry run), complete scan");
    expect(out.stdout).toMatch(/plan=aws&state=failed&state=error\s+\d+\s+\d+\s+\d+/);
    expect(out.stdout).toMatch(/firing\s+(critical|warning)/);
  });

  it("reads --filter plan=trial,aws as both plans, as kcp reads a comma, and sends KEB a key per value", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-cli-"));
    const queries = async (...filters: string[]): Promise<string[]> => {
      const out = await cli(runArgs("failing", kit.sim.url, dir, "--dry-run", ...filters, "-o", "json"));
      expect(out.code, out.stderr).toBe(0);
      return JSON.parse(out.stdout).queries.map((q: { query: string }) => q.query);
    };
    const commas = await queries("--filter", "plan=trial,aws");
    expect(commas).toContain("plan=trial&plan=aws&state=failed&state=error");
    for (const query of commas) expect(query).toMatch(/^plan=trial&plan=aws&state=/);
    expect(await queries("--filter", "plan=trial", "--filter", "plan=aws")).toEqual(commas);
    const empty = await cli(runArgs("failing", kit.sim.url, dir, "--filter", "plan=trial,,aws"));
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("--filter plan=trial,,aws: an empty value in a comma-separated list");
  });

  it("exits 2 on an incomplete scan", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-cli-"));
    kit.sim.faults.add({
      times: Number.POSITIVE_INFINITY,
      page: 1,
      action: { kind: "status", status: 500, json: true, body: "db down" },
    });
    const out = await cli(runArgs("expired", kit.sim.url, dir, "--output", "json"));
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stdout)).toMatchObject({
      complete: false,
      incompleteReason: expect.stringMatching(/db down/),
    });
  });

  it("exits 1 naming the problem for bad input or configuration", async () => {
    const noAudit = await cli(["run", "--keb-url", kit.sim.url]);
    expect(noAudit).toMatchObject({ code: 1 });
    expect(noAudit.stderr).toContain("--audit is required");
    const unknown = await cli(["run", "--audit", "nightly", "--keb-url", kit.sim.url]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("--audit nightly: one of failing, expired, applications, all\n");
    const noAuth = await cli(["run", "--audit", "failing", "--keb-url", kit.sim.url], { KEB_TOKEN: "" });
    expect(noAuth.code).toBe(1);
    expect(noAuth.stderr).toMatch(/KEB_TOKEN/);
    const badNow = await cli(["run", "--audit", "failing", "--keb-url", kit.sim.url, "--now", "soon"]);
    expect(badNow.code).toBe(1);
    expect(badNow.stderr).toContain("--now soon: expected an ISO time");
    const half = await cli(["run", "--audit", "failing", "--keb-url", kit.sim.url], { AUDIT_TABLE: "t" });
    expect(half.stderr).toContain("set both AUDIT_TABLE and ALERT_TOPIC_ARN");
  });

  it("exits 1 when the token endpoint refuses (configuration), 2 when it does not answer (try again)", async () => {
    const grant = (tokenUrl: string) => ({
      KEB_TOKEN_URL: tokenUrl,
      KEB_CLIENT_ID: "auditor",
      KEB_CLIENT_SECRET: "not-the-secret",
    });
    // Without the static token the other tests use: the client-credentials grant.
    const run = (env: Record<string, string>) =>
      runCommandLine(
        runArgs("failing", kit.sim.url, mkdtempSync(join(tmpdir(), "fa-cli-")), "--output", "json"),
        {
          env,
        },
      );
    kit.sim.faults.add({
      path: "/oauth2/token",
      times: Number.POSITIVE_INFINITY,
      action: { kind: "status", status: 401, json: true, body: "invalid_client" },
    });
    const refused = await run(grant(`${kit.sim.url}/oauth2/token`));
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ complete: false, incompleteCode: "KEB_AUTH" });
    kit.sim.faults.clear();
    const closed = await onLoopback(createServer());
    await closed.close();
    const down = await run(grant(`${closed.origin}/oauth2/token`));
    expect(down.code).toBe(2);
    expect(JSON.parse(down.stdout)).toMatchObject({
      complete: false,
      incompleteCode: "KEB_HTTP",
      incompleteReason: expect.stringMatching(
        /page 1 failed: token endpoint http:\/\/127\.0\.0\.1:\d+ failed with no answer/,
      ),
    });
  });

  it("exits 2 and says why when a message cannot be written to the outbox", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-cli-"));
    mkdirSync(join(dir, "outbox.jsonl"));
    const out = await cli(["run", "--audit", "failing", "--keb-url", kit.sim.url, "--state-dir", dir]);
    expect(out.code).toBe(2);
    expect(out.stdout).toMatch(/\d+ FAILED to send \(EISDIR: illegal operation on a directory/);
  });
});
