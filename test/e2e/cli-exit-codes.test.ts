import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXIT_CODES_HELP } from "@fleet-auditor/cli";
import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, spawnCli } from "../helpers/cli.ts";
import { useDynamo } from "../helpers/dynamo.ts";
import { emulatorEnv } from "../helpers/lambda.ts";

// One exit-code table for every command, printed by --help: 0 done; 1 bad usage, configuration
// or nothing found; 2 ran but only in part (an incomplete scan, a message not sent, a run
// skipped, a transient write failure); 130/143 interrupted. The audit's own codes are tested in
// cli-run, cli-process and cli-lease; here the other commands'.

const dynamo = useDynamo(["exit-audit"]);
let closedPort = 0;
beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closedPort = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
});

const traffic = (): string => {
  const file = join(mkdtempSync(join(tmpdir(), "fa-exit-")), "traffic.jsonl");
  writeFileSync(file, applicationTraffic({ applications: 3, seed: 4 }).join("\n"));
  return file;
};

describe("fleet-auditor exit codes", () => {
  it("prints the table in --help", async () => {
    const help = await cli(["--help"]);
    expect(help.stdout).toContain(EXIT_CODES_HELP);
    for (const line of [
      /^ {2}0 +done$/m,
      /^ {2}1 +bad usage or configuration, or nothing found/m,
      /^ {2}2 +ran, but only in part/m,
      /^ {2}130\/143 +interrupted/m,
    ])
      expect(help.stdout).toMatch(line);
  });

  it("exits 2 when apps ingest could write only part, as a partial audit run does", async () => {
    // A table that is not there: every write fails, and is counted, not thrown.
    const out = await spawnCli(["apps", "ingest", traffic(), "-o", "json"], {
      env: { ...emulatorEnv({ dynamodb: dynamo.db.endpoint }), STATUS_TABLE: "no-such-status-table" },
    });
    expect(out.code, out.stderr).toBe(2);
    const counts = JSON.parse(out.stdout);
    expect(counts).toMatchObject({ records: 6, applied: 0 });
    expect(counts.failed).toBeGreaterThan(0);
  });

  it("exits 2 when DynamoDB cannot be reached (try again), and 1 for what is not there", async () => {
    const unreachable = await spawnCli(["runs", "list"], {
      env: { ...emulatorEnv({ dynamodb: `http://127.0.0.1:${closedPort}` }), AUDIT_TABLE: "exit-audit" },
    });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/^fleet-auditor: .*ECONNREFUSED/);
    const dir = mkdtempSync(join(tmpdir(), "fa-exit-"));
    for (const args of [
      ["runs", "show", "no-such-run"],
      ["silences", "expire", "no-such-silence"],
      ["slack", "preview", "no-such-run"],
      ["slack", "preview", "--from-outbox"],
    ]) {
      const out = await cli([...args, "--state-dir", dir]);
      expect(out.code, args.join(" ")).toBe(1);
      expect(out.stderr.split("\n"), args.join(" ")).toHaveLength(2); // one line, no usage
    }
  }, 60_000);

  it("exits 2 when the endpoint's name does not resolve, as for any unreachable endpoint", async () => {
    // `.invalid` never resolves (RFC 6761): the lookup fails on this machine, without a network.
    const unresolved = await spawnCli(["runs", "list"], {
      env: {
        ...emulatorEnv({ dynamodb: "http://dynamodb.no-such-host.invalid" }),
        AUDIT_TABLE: "exit-audit",
      },
    });
    expect(unresolved.stderr).toMatch(
      /^fleet-auditor: .*(ENOTFOUND|EAI_AGAIN) dynamodb\.no-such-host\.invalid/,
    );
    expect(unresolved.code).toBe(2);
  }, 60_000);

  it("exits 130 on SIGINT and 143 on SIGTERM, as a shell reports a command ended by either", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-exit-"));
    for (const [signal, code] of [
      ["SIGINT", 130],
      ["SIGTERM", 143],
    ] as const) {
      // apps ingest - waits on standard input, which stays open.
      const out = await spawnCli(["apps", "ingest", "-", "--state-dir", dir], {
        signal,
        signalWhen: () => new Promise((resolve) => setTimeout(resolve, 2_000)),
      });
      expect(out.code, signal).toBe(code);
    }
  }, 60_000);
});
