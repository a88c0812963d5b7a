import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ensureSstPlatform } from "../../tools/sst-platform.ts";

// Issue 10: sst.config.ts type-checks against SST's own component types (`.sst/platform`, made by
// `sst install`; .ci/run makes it before the tests, and this installs it when it is missing). A
// test rather than a step of `npm test`, so that it overlaps with the other test files.

describe("sst.config.ts", () => {
  it("type-checks against SST's component types", async () => {
    ensureSstPlatform();
    const tsc = new URL("../../node_modules/typescript/bin/tsc", import.meta.url).pathname;
    const result = await promisify(execFile)(process.execPath, [tsc, "-p", "tsconfig.sst.json"], {
      cwd: new URL("../../", import.meta.url).pathname,
    }).then(
      () => ({ ok: true, output: "" }),
      (err: { stdout?: string }) => ({ ok: false, output: err.stdout ?? String(err) }),
    );
    expect(result.output).toBe("");
    expect(result.ok).toBe(true);
  }, 300_000);
});
