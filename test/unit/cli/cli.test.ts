import { PassThrough } from "node:stream";
import { COMMANDS, cliVersion, runCli } from "@fleet-auditor/cli";
import { describe, expect, it } from "vitest";

// The command table, help and version in process; the commands' work is tested end to end in test/e2e.

async function cli(argv: string[], vars: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => {
    out += d;
  });
  stderr.on("data", (d: Buffer) => {
    err += d;
  });
  const code = await runCli(argv, vars, { stdout, stderr, stdin: new PassThrough() });
  return { code, stdout: out, stderr: err };
}

describe("fleet-auditor (command table, help, version)", () => {
  it.each([["--help"], ["-h"], ["help"]])(
    "%s prints the usage listing every command and exits 0",
    async (flag) => {
      const r = await cli([flag]);
      expect(r).toMatchObject({ code: 0, stderr: "" });
      const lines = r.stdout.split("\n").map((l) => l.trim().split(/\s{2,}/));
      for (const c of COMMANDS) expect(lines).toContainEqual([c.name, c.summary]);
    },
  );

  it("prints each command's usage for --help, -h and help <command>, and exits 0", async () => {
    for (const c of COMMANDS) {
      for (const argv of [
        [c.name, "--help"],
        [c.name, "-h"],
        ["help", c.name],
      ]) {
        const r = await cli(argv);
        expect(r, argv.join(" ")).toMatchObject({ code: 0, stdout: c.usage, stderr: "" });
      }
    }
  });

  it("prints the version at the top level and for each command", async () => {
    expect(cliVersion()).toMatch(/^\d+\.\d+\.\d+/);
    for (const argv of [["--version"], ["-V"], ["run", "--version"], ["apps", "--version"]]) {
      expect(await cli(argv)).toEqual({ code: 0, stdout: `fleet-auditor ${cliVersion()}\n`, stderr: "" });
    }
  });

  it("exits 1 for no command, an unknown command and an unknown option, pointing to --help", async () => {
    const none = await cli([]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe("fleet-auditor: no command given\nSee 'fleet-auditor --help' for usage.\n");
    const unknown = await cli(["frobnicate"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("unknown command frobnicate\n");
    const option = await cli(["silences", "list", "--colour"]);
    expect(option.code).toBe(1);
    expect(option.stderr).toBe(
      "fleet-auditor: unknown option --colour\nSee 'fleet-auditor silences --help' for usage.\n",
    );
  });

  it("parses its environment once and names a bad variable without echoing it", async () => {
    const r = await cli(["silences", "list"], { ALERT_TOPIC_ARN: "secret-looking-value" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/invalid configuration: ALERT_TOPIC_ARN: expected an SNS topic ARN/);
    expect(r.stderr).not.toContain("secret-looking-value");
  });

  it("refuses a run with only one of AUDIT_TABLE and ALERT_TOPIC_ARN, naming the missing one", async () => {
    const r = await cli(["run", "--audit", "failing", "--keb-url", "http://127.0.0.1:9"], {
      KEB_TOKEN: "t",
      AUDIT_TABLE: "audit",
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ALERT_TOPIC_ARN: set both AUDIT_TABLE and ALERT_TOPIC_ARN");
  });

  it("refuses arguments a command does not take instead of ignoring them", async () => {
    for (const argv of [
      ["apps", "status", "edge-1"],
      ["apps", "ingest", "a.jsonl", "b.jsonl"],
      ["silences", "list", "extra"],
      ["runs", "show", "r1", "r2"],
      ["lease", "show", "--audit", "failing", "x"],
    ]) {
      const r = await cli(argv);
      expect(r.code, argv.join(" ")).toBe(1);
      expect(r.stderr, argv.join(" ")).toMatch(/^fleet-auditor: unexpected argument: /);
    }
  });
});
