import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applicationTraffic } from "@fleet-auditor/keb-kubeedge-sim";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { emptyStateDir, runArgs, cli as runCommandLine, spawnCli } from "../helpers/cli.ts";
import { useKebSimulator } from "../helpers/keb.ts";

// `-o` is `--output` everywhere (kcp and kubectl users type it by reflex), and every command that
// prints JSON prints the same data as YAML with `-o yaml`, which a YAML reader reads back.

const kit = useKebSimulator({ fleet: { size: 200, seed: 5, flagged: 20 } });
const cli = (args: string[]) => runCommandLine(args, { env: { KEB_TOKEN: "local-token" } });
const dir = mkdtempSync(join(tmpdir(), "fa-output-"));
let runId = "";

beforeAll(async () => {
  const first = await cli(runArgs("failing", kit.sim.url, dir, "-o", "json"));
  runId = JSON.parse(first.stdout).runId;
  const traffic = join(dir, "traffic.jsonl");
  writeFileSync(traffic, `${applicationTraffic({ applications: 4, seed: 9 }).join("\n")}\n{broken\n`);
  expect((await cli(["apps", "ingest", traffic, "--state-dir", dir])).code).toBe(0);
  const silence = ["--match", "plan=trial", "--for", "1h", "--comment", "quiet", "--by", "ops"];
  expect((await cli(["silences", "add", ...silence, "--state-dir", dir])).code).toBe(0);
});

/** Each command that prints data, with what it needs; `-o FORMAT` is appended. */
const COMMANDS: Array<[string, () => string[]]> = [
  ["run --dry-run", () => runArgs("failing", kit.sim.url, dir, "--dry-run")],
  ["runs list", () => ["runs", "list", "--state-dir", dir]],
  ["runs show", () => ["runs", "show", runId, "--state-dir", dir]],
  ["apps ingest", () => ["apps", "ingest", join(dir, "traffic.jsonl"), "--state-dir", dir]],
  ["apps status", () => ["apps", "status", "--state-dir", dir]],
  ["apps quarantine", () => ["apps", "quarantine", "--state-dir", dir]],
  ["apps reindex", () => ["apps", "reindex", "--state-dir", dir]],
  ["silences list", () => ["silences", "list", "--state-dir", dir]],
  ["slack preview", () => ["slack", "preview", runId, "--state-dir", dir]],
];

/** What differs between two calls of the same command: run IDs, times and durations. */
const steady = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (key, v) =>
      ["runId", "startedAt", "finishedAt", "durationMs", "generatedAt"].includes(key) ? "*" : v,
    ),
  );

describe("-o and --output yaml", () => {
  it.each(COMMANDS)("%s prints the same data with -o yaml as with --output json", async (_, args) => {
    const json = await cli([...args(), "--output", "json"]);
    const yaml = await cli([...args(), "-o", "yaml"]);
    expect(json.code, json.stderr).toBe(0);
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(steady(parse(yaml.stdout))).toEqual(steady(JSON.parse(json.stdout)));
    // -o is --output: the same JSON either way.
    const short = await cli([...args(), "-o", "json"]);
    expect(steady(JSON.parse(short.stdout))).toEqual(steady(JSON.parse(json.stdout)));
  });

  it("adds a silence and prints it as YAML", async () => {
    const args = ["silences", "add", "--match", "region=eu", "--for", "2h", "--comment", "c", "--by", "me"];
    const out = await cli([...args, "--state-dir", dir, "-o", "yaml"]);
    expect(out.code, out.stderr).toBe(0);
    expect(parse(out.stdout)).toMatchObject({
      match: [{ name: "region", op: "=", value: "eu" }],
      createdBy: "me",
      comment: "c",
    });
  });

  it("takes -o in the real process, and -o=yaml and -oyaml as parseArgs spells them", async () => {
    for (const flag of [["-o", "yaml"], ["-o=yaml"], ["-oyaml"]]) {
      const out = await spawnCli(["runs", "list", "--state-dir", dir, ...flag]);
      expect(out.code, out.stderr).toBe(0);
      expect(parse(out.stdout)).toEqual([expect.objectContaining({ runId, audit: "failing" })]);
    }
  }, 60_000);
});

describe("--no-headers", () => {
  it.each([
    ["runs list", ["runs", "list"], /^STARTED +AUDIT/],
    ["silences list", ["silences", "list"], /^ID +STATE/],
    ["apps status", ["apps", "status"], /^NODE +STATUS/],
    ["apps quarantine", ["apps", "quarantine"], /^RECEIVED +CODE/],
  ])("%s prints the table's rows without its header, as kubectl does", async (_, args, header) => {
    const full = await cli([...args, "--state-dir", dir]);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout).toMatch(header);
    const rows = await cli([...args, "--state-dir", dir, "--no-headers"]);
    expect(rows.code, rows.stderr).toBe(0);
    expect(rows.stdout).toBe(full.stdout.split("\n").slice(1).join("\n"));
    expect(rows.stdout).not.toBe("");
  });

  it("prints nothing for an empty list, where the table says there is none", async () => {
    const empty = await emptyStateDir("fa-output-empty-");
    expect((await cli(["runs", "list", "--state-dir", empty])).stdout).toBe("no runs\n");
    expect(await cli(["runs", "list", "--state-dir", empty, "--no-headers"])).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
  });

  it("is refused where no list is printed", async () => {
    const out = await cli(["runs", "show", runId, "--state-dir", dir, "--no-headers"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("runs show does not take --no-headers (runs list does)");
  });
});
