import { describe, expect, inject, it } from "vitest";
import { benchApps } from "../bench/apps.ts";
import { benchAudit } from "../bench/audit.ts";
import { benchCost } from "../bench/cost.ts";
import { benchKeb } from "../bench/keb.ts";
import { type BenchOptions, javaPresent } from "../bench/kit.ts";
import { benchReport } from "../bench/report.ts";

// Every benchmark of `npm run bench` runs here at a smoke size, so that none can rot: it must
// complete and print its figures and ratios. Its timings and bars are not held here (a smoke size
// on a shared machine says nothing about them); `npm run bench` holds the bars. The bundle
// benchmark has its own test (test/e2e/bundled-functions.test.ts holds every bundle to its bar).

// In the `dynamodb-local` project (vitest.config.ts) when Java is here: its DynamoDB Local, each
// benchmark on databases of its own access keys.
const java = await javaPresent();
const local = java ? { endpoint: inject("dynamoLocalEndpoint") } : undefined;

/** Runs a benchmark at smoke size, returning what it printed. */
async function smoke(bench: (options: BenchOptions) => Promise<boolean>): Promise<string[]> {
  const lines: string[] = [];
  const verdict = await bench({
    smoke: true,
    say: (line) => lines.push(line),
    ...(local ? { dynamoLocal: { endpoint: local.endpoint } } : {}),
  });
  expect(typeof verdict).toBe("boolean");
  // Every bar line says how it went; no figure is printed as NaN or Infinity.
  const bars = lines.filter((l) => l.includes("(bar "));
  expect(bars.length, "lines with a bar").toBeGreaterThan(0);
  for (const line of bars) expect(line).toMatch(/\) (PASS|FAIL)/);
  expect(lines.filter((l) => /NaN|Infinity|undefined/.test(l))).toEqual([]);
  return lines;
}

const NUMBER = String.raw`\d+(\.\d+)?`;

describe("benchmarks at smoke size", () => {
  it("the KEB benchmark lists the flagged set and prints its time against the lower bound and a sequential pager, and peak memory", async () => {
    const lines = await smoke(benchKeb);
    expect(lines.join("\n")).toMatch(new RegExp(`lower bound ceil\\(\\d+/4\\) x \\d+ ms = ${NUMBER} ms`));
    expect(lines.join("\n")).toMatch(new RegExp(`bounded-concurrency pager: ${NUMBER} ms`));
    expect(lines.join("\n")).toMatch(new RegExp(`ratio to lower bound: ${NUMBER}x`));
    expect(lines.join("\n")).toMatch(new RegExp(`speed-up over sequential: ${NUMBER}x`));
    expect(lines.join("\n")).toMatch(new RegExp(`one request alone: ${NUMBER} ms`));
    expect(lines.join("\n")).toMatch(
      new RegExp(`pager to ceil\\(\\d+/4\\) x one request alone: ${NUMBER} \\(bar <= 1.10\\)`),
    );
    expect(lines.join("\n")).toMatch(new RegExp(`peak RSS, streaming as the audit does: ${NUMBER} MB`));
  }, 120_000);

  it("the audit benchmark runs first and steady runs on dynalite and DynamoDB Local and prints each against listing alone", async () => {
    const lines = await smoke(benchAudit);
    const text = lines.join("\n");
    const backends = java ? ["dynalite", "DynamoDB Local"] : ["dynalite"];
    for (const backend of backends) expect(lines.some((l) => l.startsWith(`[${backend}`))).toBe(true);
    if (!java) expect(text).toContain("DynamoDB Local: left out (no java on PATH)");
    const count = (pattern: RegExp): number => lines.filter((l) => pattern.test(l)).length;
    // Per backend and audit: listing alone, a steady run and one of a new store, with ratios.
    expect(
      count(
        new RegExp(
          `listing alone ${NUMBER} ms \\(\\d+ pages; .*one request alone ${NUMBER} ms .*pager ${NUMBER}x ceil`,
        ),
      ),
    ).toBe(2 * backends.length);
    expect(
      count(
        new RegExp(
          `pager / ceil\\(pages/concurrency\\) x one request alone, worst audit: ${NUMBER} \\(bar <= 1.10\\)`,
        ),
      ),
    ).toBe(backends.length);
    expect(count(new RegExp(`steady run ${NUMBER} ms, ${NUMBER}x listing`))).toBe(2 * backends.length);
    expect(count(new RegExp(`steady run of a new store .* ${NUMBER} ms, ${NUMBER}x listing`))).toBe(
      2 * backends.length,
    );
    expect(count(new RegExp(`steady run / listing alone, worst audit: ${NUMBER} \\(bar <= 1.15\\)`))).toBe(
      backends.length,
    );
    expect(
      count(
        new RegExp(`steady run of a new store / listing alone, worst audit: ${NUMBER} \\(bar <= 1.25\\)`),
      ),
    ).toBe(backends.length);
    expect(text).toMatch(new RegExp(`AWS requests: ours \\d+ .*naive \\d+; ratio ${NUMBER}x`));
    expect(text).toMatch(/snapshot item writes: \d+ \(bar 0\)/);
  }, 180_000);

  it("the Applications benchmark ingests its messages and prints CPU per message, writes against pairs and index capacity", async () => {
    const lines = await smoke(benchApps);
    const text = lines.join("\n");
    expect(text).toMatch(new RegExp(`handler CPU per message .*: ${NUMBER} ms`));
    expect(text).toMatch(/DynamoDB write requests: \d+; distinct \(batch, ID\) pairs: \d+/);
    expect(text).toMatch(/0 failed/);
    if (java) {
      expect(text).toMatch(new RegExp(`write units per message: ${NUMBER} vs today ${NUMBER}`));
      expect(text).not.toMatch(/DISAGREE/);
    } else expect(text).toContain("DynamoDB Local: left out (no java on PATH)");
  }, 180_000);

  it("the cost benchmark prices a reference month from what the code sent, and holds it to its goals", async () => {
    const lines = await smoke(benchCost);
    const text = lines.join("\n");
    expect(text).toMatch(/a reference month \(730 hours\) of stage region eu-central-1/);
    if (!java) {
      expect(text).toContain("DynamoDB Local: left out (no java on PATH)");
      return;
    }
    for (const group of ["KEB audits", "Applications audit", "Application path", "Metrics, alarms"])
      expect(text).toMatch(new RegExp(`^  ${group}.*: \\$${NUMBER} a month$`, "m"));
    expect(text).toMatch(
      new RegExp(`DynamoDB status table writes: [\\d,]+ x .* = \\$${NUMBER} \\(measured x model\\)`),
    );
    expect(text).toMatch(new RegExp(`^  total: \\$${NUMBER} a month$`, "m"));
    expect(text).toMatch(/index sort-key change 2 write units .* PASS/);
    // Each goal is printed with its verdict; the custom metrics are counted from the EMF printed.
    expect(text).toMatch(/the audits .*: \$[\d.]+ a month \(bar <= \$3.00\) (PASS|FAIL)/);
    expect(text).toMatch(/DynamoDB writes per million messages: \$[\d.]+ .*\(bar <= \$1.60\) (PASS|FAIL)/);
    expect(text).toMatch(/custom metrics: \d+ \(bar <= 15\) PASS/);
  }, 120_000);

  it("the report benchmark generates a week of incidents' page, loads it in Chromium until its table sorts, and prints its times against the 2 s bar", async () => {
    const lines = await smoke(benchReport);
    const text = lines.join("\n");
    expect(text).toMatch(new RegExp(`generation \\(statistics and HTML\\): ${NUMBER} ms`));
    expect(text).toMatch(new RegExp(`HTML size: ${NUMBER} MB \\(\\d+ bytes\\)`));
    expect(text).toMatch(new RegExp(`Chromium load until sortable and painted: ${NUMBER} ms`));
    expect(text).toMatch(new RegExp(`one sort \\(Members, ascending\\) until painted: ${NUMBER} ms`));
    expect(text).toMatch(new RegExp(`generation \\+ load: ${NUMBER} ms \\(bar <= 2000 ms\\) (PASS|FAIL)`));
  }, 60_000);
});
