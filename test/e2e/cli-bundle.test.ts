import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { parse } from "yaml";
import { spawnCli } from "../helpers/cli.ts";
import { useKebSimulator } from "../helpers/keb.ts";

// `npm run build:cli`: the CLI as one file that a plain Node 22 runs anywhere. Built by the
// `dynalite` project's global setup (test/setup/function-bundles.ts, which fails the run with the
// build's output if it fails) into a temporary directory outside the repository, so that nothing
// can be found in node_modules: what the file needs, it holds (the AWS SDK, dynalite, LevelDB's
// native addon for the embedded store).

const kit = useKebSimulator({ fleet: { size: 200, seed: 12, flagged: 20 } });
const out = inject("cliBundle");

const bundled = (args: string[], env: Record<string, string> = {}) => spawnCli(args, { script: out, env });

describe("the bundled CLI (npm run build:cli)", () => {
  it("is one executable file that starts with #!/usr/bin/env node", () => {
    expect(readFileSync(out, "utf8").split("\n", 1)[0]).toBe("#!/usr/bin/env node");
    expect(statSync(out).mode & 0o111).toBe(0o111);
  });

  it("prints its version and usage", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../../packages/cli/package.json", import.meta.url), "utf8"));
    expect(await bundled(["--version"])).toEqual({
      code: 0,
      stdout: `fleet-auditor ${pkg.version}\n`,
      stderr: "",
    });
    const help = await bundled(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: fleet-auditor <command>/);
  });

  it("runs an audit against KEB on the embedded store, and reads the ledger it wrote", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-bundle-state-"));
    const run = await bundled(
      ["run", "--audit", "failing", "--keb-url", kit.sim.url, "--state-dir", dir, "-o", "json"],
      {
        KEB_TOKEN: "local-token",
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ audit: "failing", status: "completed", complete: true });
    const listed = await bundled(["runs", "list", "--state-dir", dir, "-o", "yaml"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(parse(listed.stdout)).toEqual([
      expect.objectContaining({ runId: summary.runId, audit: "failing" }),
    ]);
  });
});
