import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The purity rule lives in biome.json (an override for packages/audit, packages/metaserver and
// packages/render, plus the GritQL plugin tools/biome/no-clock.grit): no I/O, no clock, and no
// source or audit (the engine knows no audit: the KEB and KubeEdge audits are plug-ins that
// import it, registered where the process starts). A rule that silently stops
// matching would let I/O into the pure packages unnoticed, so this lints probe files placed where
// it applies: in a scratch directory holding the repository's biome.json and the plugins it
// names, laid out as the repository is, so that no probe is ever written into src/.

const ROOT = new URL("../../", import.meta.url).pathname;
const BIOME = `${ROOT}node_modules/.bin/biome`;

// Lines 1-5: a source or an audit, which the pure packages know nothing of (the audits are
// plug-ins beside the engine); lines 6-13: I/O.
const IMPURE = `import { scanAll } from "@fleet-auditor/keb";
import { isZeroTime } from "@fleet-auditor/keb/model";
import { stuckApplications } from "@fleet-auditor/metaserver";
import { kebAudits } from "@fleet-auditor/keb-audits";
import { kubeedgeAudit } from "@fleet-auditor/kubeedge-audit";
import { DynamoAuditStore } from "@fleet-auditor/store";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { connect } from "node:net";
import { env } from "node:process";
import { fetch } from "undici";
import { SNSClient } from "@aws-sdk/client-sns";
import { createHttpAgent } from "@fleet-auditor/http/agent";
export const used: unknown[] = [scanAll, isZeroTime, stuckApplications, kebAudits, kubeedgeAudit, DynamoAuditStore, readFileSync, createServer, connect, env, fetch, SNSClient, createHttpAgent];
export const at = Date.now();
export const today = new Date();
`;

// What the pure packages may do: the SNS envelope's pure subpath, dates from inputs.
const PURE = `import { SNS_BYTE_BUDGET } from "@fleet-auditor/notify/sns-envelope";
export const budget = SNS_BYTE_BUDGET;
export const later = (now: Date): Date => new Date(now.getTime() + 1000);
export const expired = (at: string, now: Date): boolean => Date.parse(at) < now.getTime();
`;

interface Diagnostic {
  message: string;
  category: string;
  location: { path: string; start: { line: number } };
}

/** Lints `files` (repository paths to their text) under the repository's biome.json, in a scratch copy. */
async function lint(files: Record<string, string>): Promise<Diagnostic[]> {
  const dir = await mkdtemp(join(tmpdir(), "purity-rule-"));
  const place = async (path: string, text: string): Promise<void> => {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  };
  try {
    const config = await readFile(`${ROOT}biome.json`, "utf8");
    await place("biome.json", config);
    for (const plugin of pluginsOf(JSON.parse(config))) await cp(join(ROOT, plugin), join(dir, plugin));
    for (const [path, text] of Object.entries(files)) await place(path, text);
    // The scratch directory is no git work tree: the rule's reach must not depend on one.
    const args = ["lint", "--vcs-enabled=false", "--reporter=json", ...Object.keys(files)];
    const out = await promisify(execFile)(BIOME, args, { cwd: dir }).catch((err: { stdout?: string }) => ({
      stdout: err.stdout ?? "",
    }));
    return (JSON.parse(out.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The plugin files a Biome configuration names, at its top level and in its overrides. */
function pluginsOf(config: { plugins?: string[]; overrides?: Array<{ plugins?: string[] }> }): string[] {
  return [...(config.plugins ?? []), ...(config.overrides ?? []).flatMap((o) => o.plugins ?? [])];
}

describe("the purity rule (biome.json)", () => {
  it("fails a pure-package file that imports I/O or reads the clock, and passes the same file elsewhere", async () => {
    const pure = ["audit", "metaserver", "render"];
    const impure = pure.map((p) => `packages/${p}/src/purity-probe.ts`);
    const allowed = pure.map((p) => `packages/${p}/src/purity-probe-pure.ts`);
    const elsewhere = "packages/use-cases/src/purity-probe.ts";
    const store = "packages/store/src/purity-probe.ts";
    const diagnostics = await lint({
      ...Object.fromEntries(impure.map((p) => [p, IMPURE])),
      ...Object.fromEntries(allowed.map((p) => [p, PURE])),
      [elsewhere]: IMPURE,
      [store]: IMPURE,
    });
    const at = (path: string): Array<[number, string]> =>
      diagnostics
        .filter((d) => d.location.path === path)
        .map((d) => [d.location.start.line, d.message] as [number, string])
        .sort(([a], [b]) => a - b);

    for (const path of impure) {
      const found = at(path);
      // One diagnostic per import line (1-13) and per clock read (15, 16).
      expect(found.map(([line]) => line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16]);
      for (const [, message] of found.slice(0, 3)) expect(message).toMatch(/know no source/);
      for (const [, message] of found.slice(3, 5)) expect(message).toMatch(/knows no audit/);
      expect(found[12]?.[1]).toMatch(/HTTP does I\/O/);
      expect(found[13]?.[1]).toMatch(/read no clock/);
    }
    for (const path of allowed) expect(at(path)).toEqual([]);
    // The use cases may do I/O, but may not load a plug-in: the plug-ins import them.
    expect(at(elsewhere)).toEqual([
      [4, expect.stringMatching(/registry they are given/)],
      [5, expect.stringMatching(/registry they are given/)],
    ]);
    expect(at(store)).toEqual([]);
  });
});

// The demo (examples/demo) is an example of the product: biome.json refuses it to every file the
// product ships. The pure packages' override repeats the rule, since an override's paths replace
// an earlier one's; the probe in packages/audit shows that it does.
const IMPORTS_DEMO = `import { runDemo } from "@fleet-auditor/demo";
export const run = runDemo;
`;

describe("the demo's boundary (biome.json)", () => {
  it("fails a product file that imports the demo, and passes the demo's own files and the tests", async () => {
    const product = [
      "packages/cli/src/demo-probe.ts",
      "packages/audit/src/demo-probe.ts",
      "functions/demo-probe.ts",
      "infra/demo-probe.ts",
    ];
    const allowed = ["examples/demo/src/demo-probe.ts", "test/e2e/demo-probe.ts"];
    const diagnostics = await lint(
      Object.fromEntries([...product, ...allowed].map((p) => [p, IMPORTS_DEMO])),
    );
    const at = (path: string): string[] =>
      diagnostics.filter((d) => d.location.path === path).map((d) => d.message);

    for (const path of product) expect(at(path)).toEqual([expect.stringMatching(/example of the product/)]);
    for (const path of allowed) expect(at(path)).toEqual([]);
  });
});
