import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { routesOption } from "../../../packages/cli/src/routes-file.ts";

// `fleet-auditor run --routes FILE` reads the routes a stage deploys: a list, or a stages.json's
// (the stage's own, else the default's); without it, the ROUTES variable the function reads.

const dir = mkdtempSync(join(tmpdir(), "fa-routes-"));
const file = (name: string, doc: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof doc === "string" ? doc : JSON.stringify(doc));
  return path;
};
const pager = { name: "pager", receiver: "critical", matchers: ["severity=critical"], groupBy: ["audit"] };
const chat = { name: "default", receiver: "incidents", continue: true };

describe("--routes", () => {
  it("reads a list, or a stages.json's stage (else its default), or ROUTES", () => {
    expect(routesOption(file("list.json", [pager]), undefined, {})?.map((r) => r.name)).toEqual(["pager"]);
    const stages = file("stages.json", {
      default: { routes: [chat] },
      stages: { prod: { routes: [chat, pager] }, dev: {} },
    });
    expect(routesOption(stages, "prod", {})?.map((r) => r.name)).toEqual(["default", "pager"]);
    expect(routesOption(stages, "dev", {})?.map((r) => r.name)).toEqual(["default"]);
    expect(routesOption(stages, undefined, {})?.map((r) => r.name)).toEqual(["default"]);
    expect(routesOption(undefined, undefined, { ROUTES: JSON.stringify([pager]) })?.[0]?.matchers).toEqual([
      { name: "severity", op: "=", value: "critical" },
    ]);
    expect(routesOption(undefined, undefined, {})).toBeUndefined();
  });

  it("names the file and the problem: not JSON, no such stage, a bad route", () => {
    expect(() => routesOption(file("bad.json", "{"), undefined, {})).toThrow(/^--routes .*bad\.json: /);
    const stages = file("s.json", { stages: { prod: { routes: [pager] } } });
    expect(() => routesOption(stages, "qa", {})).toThrow(/no stage qa in it/);
    expect(() => routesOption(file("r.json", [{ ...pager, name: "Pager" }]), undefined, {})).toThrow(
      /--routes .*r\.json: 0\.name: expected lowercase/,
    );
    expect(() => routesOption(undefined, undefined, { ROUTES: "[" })).toThrow(/ROUTES/);
  });
});
