import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, emptyStateDir } from "../helpers/cli.ts";

// A command that reads, or changes what must already be stored, pointed at a store that is not
// there (a mistyped --state-dir, or a shell in the wrong directory) says so: it never leaves an
// empty store behind, which a later look would read as "nothing has happened".

/** A state directory that does not exist, named with a `./` so the message shows it resolved. */
function missingDir(): { given: string; absolute: string } {
  const parent = mkdtempSync(join(tmpdir(), "fa-nostore-"));
  // Not join(): it would resolve the `./` itself.
  return { given: `${parent}/./store`, absolute: join(parent, "store") };
}

const READ_ONLY: readonly (readonly string[])[] = [
  ["runs", "list"],
  ["runs", "show", "run-1"],
  ["incidents", "list"],
  ["incidents", "show", "KEY"],
  ["incidents", "stats"],
  ["incidents", "report"],
  ["silences", "list"],
  ["lease", "show", "--audit", "failing"],
  ["apps", "status"],
  ["apps", "quarantine"],
  ["slack", "preview", "run-1"],
];

/** Commands that change what must already be in a store: with none there is nothing to change. */
const UPDATERS: readonly (readonly string[])[] = [
  ["silences", "expire", "sil-1"],
  ["incidents", "ack", "KEY", "--by", "sre"],
  ["incidents", "unack", "KEY", "--by", "sre"],
  ["lease", "release", "--audit", "failing", "--force"],
  ["apps", "reindex"],
];

/** The list commands: with a format a program reads they print an empty list, as an empty store's. */
const LISTS: readonly (readonly string[])[] = [
  ["runs", "list"],
  ["incidents", "list"],
  ["silences", "list"],
  ["apps", "status"],
  ["apps", "quarantine"],
];

/** `args` in a state directory that is not there: it says so, exits 1, prints nothing and creates nothing. */
async function expectNoStore(args: readonly string[]): Promise<void> {
  const dir = missingDir();
  const out = await cli([...args, "--state-dir", dir.given]);
  expect(out, args.join(" ")).toEqual({
    code: 1,
    stdout: "",
    stderr: `fleet-auditor: no embedded store in ${dir.absolute}\n`,
  });
  expect(existsSync(dir.absolute), args.join(" ")).toBe(false);
}

describe("fleet-auditor commands without an embedded store", () => {
  it("say there is no store, exit 1 and create nothing", async () => {
    expect(READ_ONLY.length).toBeGreaterThan(0);
    for (const args of READ_ONLY) {
      await expectNoStore(args);
    }
  }, 60_000);

  it("say so for a command that changes what must be in the store, exit 1 and create nothing", async () => {
    expect(UPDATERS.length).toBeGreaterThan(0);
    for (const args of UPDATERS) {
      await expectNoStore(args);
    }
  }, 60_000);

  it("say so for silences add without --force, which would refuse a store that never ran, and create nothing", async () => {
    const add = "silences add --audit failing --match state=failed --for 1h --comment maintenance --by sre";
    await expectNoStore(add.split(" "));
  });

  it("leave silences add --force free to create it: a silence may come before the store's first run", async () => {
    const dir = missingDir();
    const args = "silences add --audit failing --match state=failed --for 1h --force".split(" ");
    const out = await cli([...args, "--comment", "maintenance", "--by", "sre", "--state-dir", dir.given]);
    expect(out.code, out.stderr).toBe(0);
    expect(existsSync(join(dir.absolute, "dynamodb"))).toBe(true);
  });

  it("say so too where the state directory holds no store (only an outbox), and leave it as it was", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-nostore-"));
    const told = await cli(["notify", "test", "--state-dir", dir]);
    expect(told.code, told.stderr).toBe(0);
    const before = readdirSync(dir).sort();
    const out = await cli(["runs", "list", "--state-dir", dir]);
    expect(out).toMatchObject({ code: 1, stderr: `fleet-auditor: no embedded store in ${dir}\n` });
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it("print an empty list for -o json and -o yaml and exit 0, creating nothing", async () => {
    expect(LISTS.length).toBeGreaterThan(0);
    for (const args of LISTS) {
      for (const [format, empty] of [
        ["json", "[]\n"],
        ["yaml", "[]\n"],
      ] as const) {
        const dir = missingDir();
        const out = await cli([...args, "-o", format, "--state-dir", dir.given]);
        expect(out, `${args.join(" ")} -o ${format}`).toEqual({ code: 0, stdout: empty, stderr: "" });
        expect(existsSync(dir.absolute), args.join(" ")).toBe(false);
      }
    }
  }, 60_000);

  it("print the header alone for incidents list -o csv, as for an empty store", async () => {
    const dir = missingDir();
    const out = await cli(["incidents", "list", "-o", "csv", "--state-dir", dir.given]);
    const empty = await emptyStateDir();
    const fromEmptyStore = await cli(["incidents", "list", "-o", "csv", "--state-dir", empty]);
    expect(fromEmptyStore.code).toBe(0);
    expect(out).toEqual(fromEmptyStore);
    expect(existsSync(dir.absolute)).toBe(false);
  });

  it("exit 1 with -o json too where the answer is not a list (show, stats, lease show)", async () => {
    for (const args of [
      ["runs", "show", "run-1"],
      ["incidents", "stats"],
      ["lease", "show", "--audit", "failing"],
    ]) {
      const dir = missingDir();
      const out = await cli([...args, "-o", "json", "--state-dir", dir.given]);
      expect(out, args.join(" ")).toMatchObject({
        code: 1,
        stdout: "",
        stderr: `fleet-auditor: no embedded store in ${dir.absolute}\n`,
      });
      expect(existsSync(dir.absolute)).toBe(false);
    }
  });

  it("leave the writers free to create it: apps ingest makes the store the readers then read", async () => {
    const dir = missingDir();
    const ingest = await cli(["apps", "ingest", "-", "--state-dir", dir.given], { stdin: "" });
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(existsSync(join(dir.absolute, "dynamodb"))).toBe(true);
    const listed = await cli(["runs", "list", "--state-dir", dir.given]);
    expect(listed).toEqual({ code: 0, stdout: "no runs\n", stderr: "" });
  });
  it("a dry run, which writes nothing, previews against an empty store in memory and creates none", async () => {
    const dir = missingDir();
    const out = await cli(["run", "--audit", "applications", "--dry-run", "--state-dir", dir.given]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`an empty store in memory (no embedded store in ${dir.absolute})`);
    expect(out.stdout).toContain("applications: completed (dry run)");
    expect(existsSync(dir.absolute)).toBe(false);
  }, 60_000);
});
