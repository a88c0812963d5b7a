import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { incidentStats } from "@fleet-auditor/audit";
import { incidentReportHtml } from "@fleet-auditor/render";
import { launchChromium } from "../helpers/browser.ts";
import { manyIncidentRecords } from "../helpers/incident-records.ts";
import { type BenchOptions, fmt, median, Report, spread } from "./kit.ts";

/** The issue's size (a week of 10,000 incidents), and a smoke size that runs in seconds. */
const SIZES = {
  full: { incidents: 10_000, rounds: 5 },
  smoke: { incidents: 300, rounds: 1 },
};
/** Generating the page and loading it in a browser until its table sorts: the issue's bar. */
const BAR_MS = 2_000;

/**
 * `npm run bench -- report`: the incident report of a week of incidents, generated (statistics
 * and HTML) and opened from disk in Chromium until its table is sortable and painted; medians of
 * several rounds, against the 2 s bar, with the page's size and one sort's time.
 */
export async function benchReport(options: BenchOptions = {}): Promise<boolean> {
  const p = options.smoke ? SIZES.smoke : SIZES.full;
  const report = new Report(options);
  const say = report.say;
  say(`incident report benchmark (node ${process.version}, ${p.rounds} rounds, medians)`);
  const week = manyIncidentRecords(p.incidents, 1);
  const dir = mkdtempSync(join(tmpdir(), "fa-bench-report-"));
  const browser = await launchChromium();
  try {
    const generate: number[] = [];
    const load: number[] = [];
    const sort: number[] = [];
    let bytes = 0;
    for (let round = 0; round < p.rounds; round++) {
      let t = performance.now();
      const stats = incidentStats(week.records, week);
      const html = incidentReportHtml({
        landscape: "bench",
        since: week.since.toISOString(),
        until: week.until.toISOString(),
        generatedAt: week.until.toISOString(),
        records: week.records,
        timelines: week.timelines,
        stats,
      });
      generate.push(performance.now() - t);
      bytes = Buffer.byteLength(html);
      const file = join(dir, `report-${round}.html`);
      writeFileSync(file, html);

      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      t = performance.now();
      await page.goto(pathToFileURL(file).href, { waitUntil: "domcontentloaded" });
      await page.waitForSelector("#incidents[data-sortable=ready]", { state: "attached" });
      // Interactive: the script listens and a frame has been painted.
      await page.evaluate("new Promise((painted) => requestAnimationFrame(() => painted(0)))");
      load.push(performance.now() - t);
      const rows = await page.locator("#incidents tbody tr").count();
      if (rows !== p.incidents) throw new Error(`the page holds ${rows} rows, not ${p.incidents}`);

      t = performance.now();
      await page.locator("#incidents thead th").nth(8).click();
      await page.waitForSelector("#incidents thead th:nth-child(9)[aria-sort=ascending]", {
        state: "attached",
      });
      await page.evaluate("new Promise((painted) => requestAnimationFrame(() => painted(0)))");
      sort.push(performance.now() - t);
      await page.close();
    }
    const total = median(generate) + median(load);
    say(`${p.incidents} incidents over a week, with their timelines`);
    say(`generation (statistics and HTML): ${fmt(median(generate))} ms (rounds: ${spread(generate)})`);
    say(`HTML size: ${fmt(bytes / 1024 / 1024, 2)} MB (${bytes} bytes)`);
    say(`Chromium load until sortable and painted: ${fmt(median(load))} ms (rounds: ${spread(load)})`);
    say(`one sort (Members, ascending) until painted: ${fmt(median(sort))} ms (rounds: ${spread(sort)})`);
    say(`generation + load: ${fmt(total)} ms ${report.bar(total, "<=", BAR_MS, `${BAR_MS} ms`)}`);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return report.ok;
}
