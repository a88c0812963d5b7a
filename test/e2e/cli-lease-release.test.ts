import { PassThrough } from "node:stream";
import { runCli } from "@fleet-auditor/cli";
import { DynamoAuditStore } from "@fleet-auditor/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useDynamo } from "../helpers/dynamo.ts";
import { emulatorEnv, withEnv } from "../helpers/lambda.ts";

// `lease release` shows a lease, asks, and releases. Between the showing and the answer a run may
// take the lease over (the shown one had expired) or its owner may extend it (it was alive): the
// release must remove only the lease the operator saw, or that run loses the fence of its commit.
// The table is a DynamoDB table (AUDIT_TABLE), where other runs can reach it meanwhile; an
// embedded store is the command's alone while it asks.

const TABLE = "lease-release";
const dynamo = useDynamo([TABLE]);
const MINUTE = 60_000;
let restore: () => void = () => undefined;
beforeEach(async () => {
  restore = withEnv(emulatorEnv({ dynamodb: dynamo.db.endpoint }));
  const left = await store().describeLease("failing");
  if (left) await store().releaseShownLease("failing", left);
});
afterEach(() => restore());

const store = () => new DynamoAuditStore({ client: dynamo.db.client, tableName: TABLE });

/** `fleet-auditor lease release --audit failing` on a terminal; `answer` is typed once it asks. */
async function releaseOnTerminal(answer: (prompt: string) => Promise<string>) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => {
    out += d;
  });
  let asked: (prompt: string) => void = () => undefined;
  const prompt = new Promise<string>((resolve) => {
    asked = resolve;
  });
  stderr.on("data", (d: Buffer) => {
    err += d;
    if (err.includes("Release it?")) asked(err);
  });
  const code = runCli(
    ["lease", "release", "--audit", "failing"],
    { AUDIT_TABLE: TABLE },
    { stdin, stdout, stderr },
  );
  stdin.write(`${await answer(await prompt)}\n`);
  return { code: await code, stdout: out, stderr: err };
}

describe("fleet-auditor lease release", () => {
  it("keeps a lease another run took over after it was shown, and says so", async () => {
    const now = Date.now();
    await store().acquireLease(
      "failing",
      "killed-run",
      new Date(now - 20 * MINUTE),
      new Date(now - 5 * MINUTE),
    );
    const out = await releaseOnTerminal(async (prompt) => {
      expect(prompt).toMatch(/lease of failing was held by run killed-run until 20\S+: it has expired/);
      // The next scheduled run starts while the operator reads the question.
      expect(
        await store().acquireLease("failing", "next-run", new Date(), new Date(Date.now() + 15 * MINUTE)),
      ).toBe(true);
      return "y";
    });
    // Ran, but released nothing: 2, as for any command that did only part of its work.
    expect(out.code).toBe(2);
    expect(out.stdout).toMatch(
      /the lease of failing changed since it was shown: now held by run next-run until 20/,
    );
    expect(out.stdout).toContain("nothing was released");
    expect((await store().describeLease("failing"))?.owner).toBe("next-run");
  });

  it("keeps a lease its owner extended after it was shown", async () => {
    const now = Date.now();
    await store().acquireLease("failing", "slow-run", new Date(now), new Date(now + 5 * MINUTE));
    const out = await releaseOnTerminal(async (prompt) => {
      expect(prompt).toMatch(/the lease of failing is held by run slow-run until 20/);
      expect(prompt).not.toContain("expired");
      // The run is alive: its commit renews the lease.
      expect(
        await store().acquireLease("failing", "slow-run", new Date(), new Date(Date.now() + 15 * MINUTE)),
      ).toBe(true);
      return "yes";
    });
    expect(out.code).toBe(2);
    expect(out.stdout).toMatch(/changed since it was shown: now held by run slow-run until 20/);
    expect((await store().describeLease("failing"))?.owner).toBe("slow-run");
  });

  it("releases the lease it showed, saying when that lease had already expired", async () => {
    const now = Date.now();
    await store().acquireLease(
      "failing",
      "killed-run",
      new Date(now - 20 * MINUTE),
      new Date(now - 5 * MINUTE),
    );
    const out = await releaseOnTerminal(async () => "y");
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^released the expired lease of failing \(run killed-run, expired at 20/);
    expect(await store().describeLease("failing")).toBeUndefined();
  });
});
