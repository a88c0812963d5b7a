import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import type { OutboxLine } from "@fleet-auditor/notify";
import { type SlackMessage, TestV1Schema } from "@fleet-auditor/render";
import type { NotifyTestResult } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { cli, spawnCli } from "../helpers/cli.ts";
import { useFaultProxy } from "../helpers/fault-proxy.ts";
import { emulatorEnv, withEnv } from "../helpers/lambda.ts";
import { useSns } from "../helpers/sns.ts";

// `fleet-auditor notify test`: a test message through each route, into the embedded outbox or to
// the stage's SNS topics, and exit codes that say whether every chosen topic took its message.

const sns = useSns();
const snsProxy = useFaultProxy(() => `http://127.0.0.1:${sns.server.port}`);
const stateDir = (): string => mkdtempSync(join(tmpdir(), "fa-notify-"));
const outbox = (dir: string): OutboxLine[] =>
  readFileSync(join(dir, "outbox.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as OutboxLine);

describe("fleet-auditor notify test on the embedded store", () => {
  it("appends one test message per topic to the outbox, and opens no store", async () => {
    const dir = stateDir();
    const out = await spawnCli(["notify", "test", "--state-dir", dir, "-o", "json"], {
      env: { USER: "alice", LANDSCAPE: "local" },
    });
    expect(out.code, out.stderr).toBe(0);
    const result = JSON.parse(out.stdout) as NotifyTestResult;
    expect(result.sender).toBe("alice");
    expect(result.topics.map((t) => [t.topic, t.status])).toEqual([
      ["alerts", "published"],
      ["incidents", "published"],
      ["critical", "published"],
    ]);
    const lines = outbox(dir);
    expect(lines.map((l) => [l.topics, l.subject, l.attributes.format])).toEqual(
      ["alerts", "incidents", "critical"].map((topic) => [
        [topic],
        `[fleet-auditor] [TEST] [local] ${topic} topic: test message, nothing is wrong`,
        "test",
      ]),
    );
    const doc = TestV1Schema.parse(
      JSON.parse((JSON.parse(lines[0]?.message ?? "") as { default: string }).default),
    );
    expect(doc).toMatchObject({ testId: result.testId, sender: "alice", landscape: "local" });
    // No run, ledger or lease: the embedded store was never opened.
    expect(existsSync(join(dir, "dynamodb"))).toBe(false);
  });

  it("says where the messages went, tests one topic when asked, and shows its Slack message", async () => {
    const dir = stateDir();
    const table = await cli(["notify", "test", "--topic", "incidents", "--by", "bob", "--state-dir", dir]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(`by bob at `);
    expect(table.stdout).toContain(`messages appended to ${join(dir, "outbox.jsonl")}`);
    expect(table.stdout).toMatch(/^incidents\s+published\s+message \S+; should show in Slack/m);
    expect(table.stdout).toContain("nothing left this machine");
    expect(outbox(dir).map((l) => l.topics)).toEqual([["incidents"]]);
    const preview = await cli(["slack", "preview", "--from-outbox", "--state-dir", dir]);
    expect(preview.code, preview.stderr).toBe(0);
    expect((JSON.parse(preview.stdout) as SlackMessage).text).toBe(
      "[TEST] incidents topic: nothing is wrong",
    );
  });

  it("names what is wrong with the command line, and sends nothing", async () => {
    const dir = stateDir();
    const bad = await cli(["notify", "test", "--topic", "pager", "--by", "a", "--state-dir", dir]);
    expect([bad.code, bad.stderr]).toEqual([
      1,
      "fleet-auditor: --topic pager: one of alerts, incidents, critical\nSee 'fleet-auditor notify --help' for usage.\n",
    ]);
    const close = await cli(["notify", "test", "--topic", "incident", "--by", "a", "--state-dir", dir]);
    expect(close.stderr).toContain(
      "--topic incident: one of alerts, incidents, critical; did you mean incidents?",
    );
    expect((await cli(["notify", "tset"])).stderr).toContain(
      "unknown notify command tset; did you mean test?",
    );
    expect((await cli(["notfy", "test"])).stderr).toContain("unknown command notfy; did you mean notify?");
    expect((await cli(["notify", "test", "--topci", "alerts"])).stderr).toContain("did you mean --topic?");
    expect(existsSync(join(dir, "outbox.jsonl"))).toBe(false);
    // Without --by and $USER, the sender is the account the command runs as.
    const account = await cli(["notify", "test", "--topic", "alerts", "--state-dir", dir, "-o", "json"]);
    expect(account.code, account.stderr).toBe(0);
    expect(JSON.parse(account.stdout)).toMatchObject({ sender: userInfo().username });
  });

  it("documents itself in --help, and is listed among the commands", async () => {
    const help = await cli(["notify", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: fleet-auditor notify test \[--topic alerts\|incidents\|critical\]/);
    expect(help.stdout).toContain("exit codes: 0 every chosen topic took its message");
    expect((await cli(["--help"])).stdout).toMatch(/^ {2}notify {6}send a test message through each topic/m);
  });
});

describe("fleet-auditor notify test on AWS", () => {
  /**
   * A command line against the SNS stand-in, in this process: the SDK reads its endpoint, region
   * and credentials from the process's environment, the CLI its own variables from `vars`.
   */
  async function aws(
    args: string[],
    vars: Record<string, string>,
    endpoint = `http://127.0.0.1:${sns.server.port}`,
  ) {
    const restore = withEnv(emulatorEnv({ dynamodb: "http://127.0.0.1:9", sns: endpoint }));
    try {
      return await cli(args, { env: { USER: "carol", AUDIT_TABLE: "never-opened", ...vars } });
    } finally {
      restore();
    }
  }

  it("publishes to the stage's topics, says which it lacks, and exits 1 when the one asked for is missing", async () => {
    const alerts = await sns.subscriber("cli-test-alerts");
    const all = await aws(["notify", "test", "-o", "json"], { ALERT_TOPIC_ARN: sns.topicArn });
    expect(all.code, all.stderr).toBe(0);
    expect((JSON.parse(all.stdout) as NotifyTestResult).topics.map((t) => t.status)).toEqual([
      "published",
      "not-configured",
      "not-configured",
    ]);
    expect((await alerts()).map((d) => d.Subject)).toEqual([
      "[fleet-auditor] [TEST] alerts topic: test message, nothing is wrong",
    ]);
    const missing = await aws(["notify", "test", "--topic", "critical"], { ALERT_TOPIC_ARN: sns.topicArn });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/^critical\s+not configured\s+CRITICAL_TOPIC_ARN is not set$/m);
    expect(missing.stderr).toContain("the critical topic is not configured: set CRITICAL_TOPIC_ARN");
    expect(await alerts()).toEqual([]);
  });

  it("exits 1 for a topic AWS does not have, saying what to check", async () => {
    const gone = sns.topicArn.replace(/alerts$/, "no-such-topic");
    const out = await aws(["notify", "test"], { ALERT_TOPIC_ARN: gone });
    expect(out.code, out.stderr).toBe(1);
    expect(out.stdout).toMatch(
      /^alerts\s+REFUSED\s+AWS \(AUDIT_TABLE, ALERT_TOPIC_ARN\): the topic does not exist/m,
    );
  });

  it("exits 2 when a topic refuses its message for now, and still sends the others", async () => {
    const incidents = await sns.topic("cli-test-incidents");
    const chat = await sns.subscriber("cli-test-chat", undefined, incidents);
    snsProxy.proxy.add({
      operation: "Publish",
      times: 10,
      bodyIncludes: `TopicArn=${encodeURIComponent(sns.topicArn)}`,
      action: { kind: "error", status: 500, code: "InternalError", message: "alerts topic down" },
    });
    const out = await aws(
      ["notify", "test", "-o", "json"],
      { ALERT_TOPIC_ARN: sns.topicArn, INCIDENT_TOPIC_ARN: incidents },
      snsProxy.proxy.url,
    );
    expect(out.code, out.stderr).toBe(2);
    expect((JSON.parse(out.stdout) as NotifyTestResult).topics).toEqual([
      { topic: "alerts", status: "refused", error: expect.stringContaining("alerts topic down") },
      expect.objectContaining({ topic: "incidents", status: "published" }),
      { topic: "critical", status: "not-configured" },
    ]);
    expect(await chat()).toHaveLength(1);
  });
});
