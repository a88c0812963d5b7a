import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The purity rule lives in biome.json (an override for packages/audit and packages/metaserver,
// plus the GritQL plugin tools/biome/no-clock.grit). A rule that silently stops matching would
// let I/O into the pure packages unnoticed, so this lints probe files placed where it applies.

const ROOT = new URL("../../", import.meta.url).pathname;
const BIOME = `${ROOT}node_modules/.bin/biome`;

const IMPURE = `import { scanAll } from "@fleet-auditor/keb";
import { DynamoAuditStore } from "@fleet-auditor/store";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { connect } from "node:net";
import { env } from "node:process";
import { fetch } from "undici";
import { SNSClient } from "@aws-sdk/client-sns";
export const used: unknown[] = [scanAll, DynamoAuditStore, readFileSync, createServer, connect, env, fetch, SNSClient];
export const at = Date.now();
export const today = new Date();
`;

// What the pure packages may do: types and helpers from the model subpath, dates from inputs.
const PURE = `import type { Runtime } from "@fleet-auditor/keb/model";
import { isZeroTime } from "@fleet-auditor/keb/model";
export const expired = (r: Runtime, now: Date): boolean =>
  !isZeroTime(r.status.expiredAt ?? "") && Date.parse(r.status.expiredAt ?? "") < now.getTime();
export const later = (now: Date): Date => new Date(now.getTime() + 1000);
`;

interface Diagnostic {
  message: string;
  category: string;
  location: { path: string; start: { line: number } };
}

async function lint(files: Record<string, string>): Promise<Diagnostic[]> {
  const paths = Object.keys(files);
  await Promise.all(paths.map((p) => writeFile(`${ROOT}${p}`, files[p] as string)));
  try {
    const out = await promisify(execFile)(BIOME, ["lint", "--reporter=json", ...paths], { cwd: ROOT }).catch(
      (err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }),
    );
    return (JSON.parse(out.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
  } finally {
    await Promise.all(paths.map((p) => rm(`${ROOT}${p}`, { force: true })));
  }
}

describe("the purity rule (biome.json)", () => {
  it("fails a pure-package file that imports I/O or reads the clock, and passes the same file elsewhere", async () => {
    const tag = randomUUID().slice(0, 8);
    const probes = {
      audit: `packages/audit/src/purity-probe-${tag}.ts`,
      metaserver: `packages/metaserver/src/purity-probe-${tag}.ts`,
      pure: `packages/metaserver/src/purity-probe-pure-${tag}.ts`,
      elsewhere: `packages/runner/src/purity-probe-${tag}.ts`,
    };
    const diagnostics = await lint({
      [probes.audit]: IMPURE,
      [probes.metaserver]: IMPURE,
      [probes.pure]: PURE,
      [probes.elsewhere]: IMPURE,
    });
    const at = (path: string): Array<[number, string]> =>
      diagnostics
        .filter((d) => d.location.path === path)
        .map((d) => [d.location.start.line, d.message] as [number, string])
        .sort(([a], [b]) => a - b);

    for (const path of [probes.audit, probes.metaserver]) {
      const found = at(path);
      // One diagnostic per import line (1-8) and per clock read (10, 11).
      expect(found.map(([line]) => line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 10, 11]);
      expect(found[0]?.[1]).toMatch(/@fleet-auditor\/keb\/model/);
      expect(found[9]?.[1]).toMatch(/read no clock/);
    }
    expect(at(probes.pure)).toEqual([]);
    expect(at(probes.elsewhere)).toEqual([]);
  });
});
