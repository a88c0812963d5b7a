import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type IncidentEvent, type IncidentRecord, incidentStats } from "@fleet-auditor/audit";
import { incidentReportHtml } from "@fleet-auditor/render";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.ts";
import { HOSTILE_VALUES, incidentRecord, manyIncidentRecords } from "../helpers/incident-records.ts";

// The report page as an on-call person opens it: a file from disk in a real Chromium, offline.
// It must load without a request or an error, show every incident, sort by any heading, and run
// nothing that the records hold. The screenshot stays in test/.output for a person to look at.

const OUTPUT = new URL("../.output/", import.meta.url).pathname;

/** Records whose every text is one of the hostile values, each with a timeline saying it too. */
function hostileRecords(): { records: IncidentRecord[]; timelines: Map<string, IncidentEvent[]> } {
  const records = HOSTILE_VALUES.map((text, i) =>
    incidentRecord({
      key: `inc-hostile-${i}${text}`,
      audit: text,
      values: { region: text },
      common: { reason: text },
      examples: [{ key: text, summary: text }],
      openedAt: new Date(Date.UTC(2026, 10, 29, i)).toISOString(),
      members: 1_000 + i,
    }),
  );
  const timelines = new Map(
    records.map((r) => [
      r.key,
      [
        {
          key: r.key,
          at: r.openedAt,
          what: ["opened", "acknowledged"],
          joined: 1,
          changed: 0,
          left: 0,
          reminded: 0,
          silenced: 0,
          inhibited: 0,
          firing: 1,
          examples: r.examples,
          by: r.audit,
          comment: r.audit,
        } satisfies IncidentEvent,
      ],
    ]),
  );
  return { records, timelines };
}

/** A column's cells, top to bottom: their text, and their sort values where they have one. */
const column = (page: Page, index: number) =>
  page.$$eval(
    "#incidents tbody tr",
    (rows, i) => rows.map((r) => r.children[i]?.getAttribute("data-v") ?? r.children[i]?.textContent ?? ""),
    index,
  );
const ascending = (xs: readonly number[]): boolean =>
  xs.every((x, i) => i === 0 || (xs[i - 1] as number) <= x);

describe("the incident report in Chromium", () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    browser = await launchChromium();
    dir = mkdtempSync(join(tmpdir(), "fa-report-"));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("loads offline with no request and no error, shows every incident, sorts by any heading both ways, and runs no hostile text", async () => {
    const week = manyIncidentRecords(200, 11);
    const hostile = hostileRecords();
    const records = [...hostile.records, ...week.records];
    const file = join(dir, "report.html");
    writeFileSync(
      file,
      incidentReportHtml({
        landscape: "prod-eu",
        since: week.since.toISOString(),
        until: week.until.toISOString(),
        generatedAt: week.until.toISOString(),
        records,
        timelines: new Map([...week.timelines, ...hostile.timelines]),
        stats: incidentStats(records, week),
      }),
    );

    const context = await browser.newContext({ offline: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const url = pathToFileURL(file).href;
    const requests: string[] = [];
    const errors: string[] = [];
    const dialogs: string[] = [];
    // Every request is counted and refused, the page's own file aside.
    await context.route("**/*", (route) =>
      route.request().url() === url ? route.continue() : route.abort(),
    );
    page.on("request", (r) => void (r.url() === url || requests.push(r.url())));
    page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
    page.on("pageerror", (e) => void errors.push(e.message));
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      return d.dismiss();
    });

    await page.goto(url);
    await page.waitForSelector("#incidents[data-sortable=ready]");
    expect(await page.locator("#incidents tbody tr").count()).toBe(records.length);
    expect(await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content")).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; base-uri 'none'; form-action 'none'$/,
    );

    // Members (a number column): by value both ways, not as text ("1005" after "2").
    const members = page.locator("#incidents thead th").nth(8);
    await members.click();
    expect(await members.getAttribute("aria-sort")).toBe("ascending");
    const up = (await column(page, 8)).map(Number);
    expect(ascending(up)).toBe(true);
    expect(up.at(-1)).toBe(1_005);
    await members.click();
    expect(await members.getAttribute("aria-sort")).toBe("descending");
    const down = (await column(page, 8)).map(Number);
    expect(down).toEqual([...up].sort((a, b) => b - a));
    expect(await page.locator("#incidents thead th[aria-sort]").count()).toBe(1);
    // Duration (a time column): by its milliseconds, whatever its words say.
    const duration = page.locator("#incidents thead th").nth(7);
    await duration.click();
    expect(ascending((await column(page, 7)).map(Number))).toBe(true);

    // Hostile text is there as text; nothing it says runs, even hovered or unfolded.
    const cell = page.locator("#incidents td", { hasText: "region=<img src=x onerror=alert(1)>" });
    expect(await cell.count()).toBeGreaterThan(0);
    await cell.first().hover();
    await page.locator("#incidents td", { hasText: "' onmouseover='alert(1)" }).first().hover();
    for (const summary of await page.locator("details summary", { hasText: "inc-hostile-" }).all())
      await summary.click();
    expect(await page.locator("details[open]").count()).toBe(HOSTILE_VALUES.length);
    expect(
      await page.locator("details[open] li", { hasText: "</script><script>alert(2)</script>" }).count(),
    ).toBeGreaterThan(0);
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.locator("script").count()).toBe(1);
    expect(await page.locator("[onerror], [onload], [onmouseover]").count()).toBe(0);

    // The first screen (a whole page of software-rendered pixels took seconds on a loaded machine).
    mkdirSync(OUTPUT, { recursive: true });
    await page.locator("h1").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUTPUT, "incident-report.png") });
    expect({ requests, errors, dialogs }).toEqual({ requests: [], errors: [], dialogs: [] });
    await context.close();
  }, 60_000);
});
