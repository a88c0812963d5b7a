import { RoutesJsonSchema } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { StagesFileSchema } from "../../../infra/stage-schema.ts";

// A stage's routes are checked twice with the same rules: by stages.json's schema before a deploy
// (naming the stage, route and field), and by the audit function's `ROUTES` where it starts. A
// route the deploy takes, the function takes too.

function problems(entry: Record<string, unknown>): string[] {
  const parsed = StagesFileSchema.safeParse({ stages: { prod: entry } });
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

const ROUTES = [
  { name: "default", receiver: "incidents", continue: true, repeatInterval: "4h" },
  {
    name: "eu_pager",
    receiver: "critical",
    matchers: ['{severity="critical", region=~"eu-.*"}'],
    groupBy: ["audit", "region"],
  },
  { name: "pager", receiver: "critical", matchers: ["severity=critical"], groupBy: ["audit"], maxNew: 2 },
];

describe("a stage's routes", () => {
  it("are taken by stages.json and by the function's ROUTES alike, matchers as operators type them", () => {
    expect(problems({ routes: ROUTES })).toEqual([]);
    const parsed = RoutesJsonSchema.parse(JSON.stringify(ROUTES));
    expect(parsed[1]?.matchers).toEqual([
      { name: "severity", op: "=", value: "critical" },
      { name: "region", op: "=~", value: "eu-.*" },
    ]);
    expect(parsed[0]).toMatchObject({ continue: true, matchers: [], repeatInterval: "4h" });
    expect(parsed[2]).toMatchObject({ continue: false, maxNew: 2 });
  });

  it("name the route and field of a bad name, a name used twice, a bad matcher or receiver", () => {
    const bad = (routes: unknown[]) => problems({ routes }).join("\n");
    expect(bad([{ name: "Pager", receiver: "critical" }])).toMatch(
      /^stages\.prod\.routes\.0\.name: expected lowercase/,
    );
    expect(bad([ROUTES[0], { ...ROUTES[2], name: "default" }])).toMatch(
      /^stages\.prod\.routes\.1\.name: route name default is used twice/,
    );
    expect(bad([{ ...ROUTES[2], matchers: ["reason=~("] }])).toMatch(
      /^stages\.prod\.routes\.0\.matchers\.0: .*not a regular expression RE2 accepts/,
    );
    expect(bad([{ ...ROUTES[2], receiver: "pagerduty" }])).toMatch(/^stages\.prod\.routes\.0\.receiver: /);
    expect(bad([{ ...ROUTES[2], repeatInterval: "4 hours" }])).toMatch(
      /^stages\.prod\.routes\.0\.repeatInterval: expected a duration such as "30m"/,
    );
    expect(bad([{ ...ROUTES[2], groupBy: ["nope"] }])).toMatch(/^stages\.prod\.routes\.0\.groupBy\.0: /);
    for (const routes of [
      [{ name: "Pager", receiver: "critical" }],
      [{ ...ROUTES[2], matchers: ["reason=~("] }],
    ])
      expect(RoutesJsonSchema.safeParse(JSON.stringify(routes)).success, JSON.stringify(routes)).toBe(false);
  });
});
