// `node tools/report-screenshot.ts`: the picture of the incident report in docs/notifications.md
// (docs/images/incident-report.png), taken in the tests' Chromium from a seeded week of about forty
// incidents, so that it can be taken again the same way when the page changes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { incidentStats } from "@fleet-auditor/audit";
import { incidentReportHtml } from "@fleet-auditor/render";
import { launchChromium } from "../test/helpers/browser.ts";
import { manyIncidentRecords } from "../test/helpers/incident-records.ts";

const OUT = new URL("../docs/images/incident-report.png", import.meta.url).pathname;
const week = manyIncidentRecords(40, Number(process.argv[2] ?? 23), { hostile: false });
const dir = mkdtempSync(join(tmpdir(), "fa-report-shot-"));
const file = join(dir, "report.html");
writeFileSync(
  file,
  incidentReportHtml({
    landscape: "prod-eu",
    since: week.since.toISOString(),
    until: week.until.toISOString(),
    generatedAt: week.until.toISOString(),
    records: week.records,
    timelines: week.timelines,
    stats: incidentStats(week.records, week),
  }),
);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector("#incidents[data-sortable=ready]", { state: "attached" });
  // The first timeline unfolded, to show that there is one per incident.
  await page.locator("details summary").first().click();
  // Down to the first few timelines: the rest of the list says nothing more.
  const end = Number(
    await page.evaluate("document.querySelectorAll('details')[3].getBoundingClientRect().top + scrollY"),
  );
  await page.screenshot({ path: OUT, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: end } });
  process.stdout.write(`${OUT}\n`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
