import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.ts";

// A usage error reads as kubectl's do: what is wrong, then where the help is; never the whole
// usage, never node:util's parseArgs wording.

const dir = mkdtempSync(join(tmpdir(), "fa-usage-"));

/** The two lines a usage error prints, or the test fails saying what it printed. */
async function usageError(args: string[]): Promise<[string, string]> {
  const r = await cli(args);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toBe("");
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines, r.stderr).toHaveLength(2);
  expect(r.stderr).not.toMatch(/To specify|positional argument|ERR_PARSE_ARGS|usage:/);
  return lines as [string, string];
}

describe("fleet-auditor usage errors", () => {
  it("says what is wrong in one line and points to the command's --help in the next", async () => {
    const [what, help] = await usageError(["apps", "status", "--colour", "red", "--state-dir", dir]);
    expect(what).toBe("fleet-auditor: unknown option --colour");
    expect(help).toBe("See 'fleet-auditor apps --help' for usage.");
    const [none, topHelp] = await usageError([]);
    expect(none).toBe("fleet-auditor: no command given");
    expect(topHelp).toBe("See 'fleet-auditor --help' for usage.");
  });

  it("suggests the option, command, subcommand or value that was probably meant", async () => {
    expect((await usageError(["run", "--adit", "failing"]))[0]).toBe(
      "fleet-auditor: unknown option --adit; did you mean --audit?",
    );
    expect((await usageError(["run", "--audti", "failing"]))[0]).toMatch(/did you mean --audit\?$/);
    expect((await usageError(["rnu", "--audit", "failing"]))[0]).toBe(
      "fleet-auditor: unknown command rnu; did you mean run?",
    );
    expect((await usageError(["runs", "shwo", "x"]))[0]).toBe(
      "fleet-auditor: unknown runs command shwo; did you mean show?",
    );
    expect((await usageError(["runs", "list", "-o", "jsno", "--state-dir", dir]))[0]).toBe(
      "fleet-auditor: --output must be json, yaml or table, got jsno; did you mean json?",
    );
    expect((await usageError(["run", "--audit", "failng", "--state-dir", dir]))[0]).toBe(
      "fleet-auditor: --audit failng: one of failing, expired, applications, all; did you mean failing?",
    );
    expect(await usageError(["--verison"])).toEqual([
      "fleet-auditor: unknown option --verison; did you mean --version?",
      "See 'fleet-auditor --help' for usage.",
    ]);
    // Nothing close: no guess.
    expect((await usageError(["silences", "list", "--zzzzzz"]))[0]).toBe(
      "fleet-auditor: unknown option --zzzzzz",
    );
  });

  it("rephrases what node:util would say about values and arguments", async () => {
    expect((await usageError(["run", "--audit"]))[0]).toBe("fleet-auditor: --audit needs a value");
    expect((await usageError(["run", "--audit", "--dry-run"]))[0]).toBe(
      "fleet-auditor: --audit needs a value",
    );
    expect((await usageError(["run", "--dry-run=yes", "--audit", "failing"]))[0]).toBe(
      "fleet-auditor: --dry-run takes no value",
    );
    expect((await usageError(["run", "failing"]))[0]).toBe("fleet-auditor: unexpected argument: failing");
    expect((await usageError(["runs", "show", "a", "b", "--state-dir", dir]))[0]).toBe(
      "fleet-auditor: unexpected argument: b",
    );
    expect((await usageError(["apps", "status", "-x"]))[0]).toBe("fleet-auditor: unknown option -x");
  });

  it("refuses an option the subcommand does not take, naming the subcommand that does", async () => {
    expect(await usageError(["silences", "list", "--for", "1h", "--state-dir", dir])).toEqual([
      "fleet-auditor: silences list does not take --for (silences add does)",
      "See 'fleet-auditor silences --help' for usage.",
    ]);
    expect((await usageError(["runs", "show", "x", "--limit", "5", "--state-dir", dir]))[0]).toBe(
      "fleet-auditor: runs show does not take --limit (runs list does)",
    );
    expect(
      (await usageError(["lease", "show", "--audit", "failing", "--force", "--state-dir", dir]))[0],
    ).toBe("fleet-auditor: lease show does not take --force (lease release does)");
    expect((await usageError(["apps", "quarantine", "--node", "n1", "--state-dir", dir]))[0]).toBe(
      "fleet-auditor: apps quarantine does not take --node (apps status does)",
    );
    expect((await usageError(["silences", "expire", "x", "--all", "--state-dir", dir]))[0]).toBe(
      "fleet-auditor: silences expire does not take --all (silences list does)",
    );
  });

  it("refuses a --deadline that Node's timers cannot hold, and one of no time at all", async () => {
    expect(
      (await usageError(["run", "--audit", "failing", "--deadline", "25d", "--state-dir", dir]))[0],
    ).toBe(
      "fleet-auditor: --deadline 25d: Node's timers hold at most 2^31-1 ms (about 24.8 days): give 24d or less",
    );
    expect((await usageError(["run", "--audit", "failing", "--deadline", "0s", "--state-dir", dir]))[0]).toBe(
      "fleet-auditor: --deadline 0s: give a duration longer than 0",
    );
  });

  it("names the option typed, not the variable or field behind it: --keb-url missing or not a URL, a --now that is no time", async () => {
    expect((await usageError(["run", "--audit", "failing", "--state-dir", dir]))[0]).toBe(
      "fleet-auditor: --audit failing reads KEB: give --keb-url URL (or set KEB_URL)",
    );
    expect(
      (await usageError(["run", "--audit", "all", "--keb-url", "127.0.0.1:4800", "--state-dir", dir]))[0],
    ).toBe(
      "fleet-auditor: --keb-url 127.0.0.1:4800: not a URL; give one such as https://kyma-env-broker.example.com",
    );
    expect(
      (await usageError(["run", "--audit", "applications", "--now", "yesterday", "--state-dir", dir]))[0],
    ).toBe(
      "fleet-auditor: --now yesterday: expected an ISO time with its zone, such as 2026-11-29T06:00:00Z",
    );
  });
});
