import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMMANDS } from "@fleet-auditor/cli";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.ts";

// `fleet-auditor completion bash|zsh` prints a script made from the command table; here bash
// itself runs the bash one, as it would on a TAB after the words given.

let script = "";
beforeAll(async () => {
  const out = await cli(["completion", "bash"]);
  expect(out.code, out.stderr).toBe(0);
  script = join(mkdtempSync(join(tmpdir(), "fa-completion-")), "fleet-auditor.bash");
  writeFileSync(script, out.stdout);
});

/** What bash offers on a TAB after `words` (the last one is the word being typed). */
function complete(...words: string[]): string[] {
  const line = ["fleet-auditor", ...words].map((w) => `'${w}'`).join(" ");
  const probe = `source '${script}'
COMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))
_fleet_auditor; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const out = spawnSync("bash", ["--norc", "--noprofile", "-c", probe], { encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout.split("\n").filter(Boolean);
}

describe("fleet-auditor completion", () => {
  it("completes commands, then subcommands, then the options the subcommand takes", () => {
    expect(complete("")).toEqual([...COMMANDS.map((c) => c.name), "help", "--help", "--version"]);
    expect(complete("sil")).toEqual(["silences"]);
    expect(complete("silences", "")).toEqual(["add", "list", "expire"]);
    expect(complete("silences", "list", "--")).toEqual([
      "--state-dir",
      "--output",
      "--no-headers",
      "--all",
      "--help",
    ]);
    expect(complete("silences", "add", "--f")).toEqual(["--for", "--force"]);
    expect(complete("run", "--dr")).toEqual(["--dry-run"]);
    expect(complete("inc")).toEqual(["incidents"]);
    expect(complete("incidents", "")).toEqual(["list", "show", "stats", "report", "ack", "unack"]);
    expect(complete("incidents", "ack", "--")).toEqual(["--state-dir", "--by", "--comment", "--help"]);
    expect(complete("incidents", "stats", "--f")).toEqual(["--flapping"]);
    expect(complete("incidents", "show", "--")).toEqual(["--state-dir", "--output", "--help"]);
    expect(complete("completion", "")).toEqual(["bash", "zsh"]);
    expect(complete("help", "ru")).toEqual(["run", "runs"]);
  });

  it("leaves an option's value and an argument to the shell's file names", () => {
    expect(complete("runs", "list", "--state-dir", "")).toEqual([]);
    expect(complete("silences", "list", "-o", "")).toEqual([]);
    expect(complete("apps", "ingest", "")).toEqual([]);
  });

  it("offers every option of every command from the command table, and only the subcommand's", () => {
    for (const c of COMMANDS) {
      for (const sub of c.subcommands ?? [undefined]) {
        const words = sub ? [c.name, sub] : [c.name];
        const offered = complete(...words, "--");
        for (const name of Object.keys(c.options)) {
          const taken = !sub || !c.takenBy?.[name] || c.takenBy[name].includes(sub);
          expect(offered.includes(`--${name}`), `${words.join(" ")} --${name}`).toBe(taken);
        }
      }
    }
  });

  it("prints a zsh script that runs the same function through bashcompinit", async () => {
    const zsh = await cli(["completion", "zsh"]);
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toContain("autoload -U +X bashcompinit && bashcompinit\n");
    expect(zsh.stdout).toContain("complete -o default -F _fleet_auditor fleet-auditor\n");
    const fish = await cli(["completion", "fish"]);
    expect(fish.code).toBe(1);
    expect(fish.stderr).toContain("unknown completion command fish");
  });
});
