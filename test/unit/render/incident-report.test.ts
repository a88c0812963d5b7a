import { createHash } from "node:crypto";
import { type IncidentEvent, type IncidentRecord, incidentStats } from "@fleet-auditor/audit";
import { type IncidentReportInput, incidentReportHtml } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import {
  HISTORY_UNTIL,
  HOSTILE_VALUES,
  incidentRecord,
  manyIncidentRecords,
} from "../../helpers/incident-records.ts";

// The incident report is one HTML file that an on-call person opens from disk: it must make no
// request, run nothing but its own script, and show every text from the records as text.

const SINCE = new Date(HISTORY_UNTIL.getTime() - 7 * 24 * 3_600_000);

function report(records: IncidentRecord[], change: Partial<IncidentReportInput> = {}): string {
  return incidentReportHtml({
    landscape: "prod-eu",
    since: SINCE.toISOString(),
    until: HISTORY_UNTIL.toISOString(),
    generatedAt: "2026-11-30T06:01:00.000Z",
    records,
    stats: incidentStats(records, { since: SINCE, until: HISTORY_UNTIL }),
    ...change,
  });
}

/** The page without its own style and script: what the records made of it. */
const markup = (html: string): string =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, "<style></style>")
    .replace(/<script>[\s\S]*?<\/script>/, "<script></script>");

/** Every start tag's name and attribute names. */
const tags = (html: string): Array<{ name: string; attributes: string[] }> =>
  [...markup(html).matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)].map((m) => ({
    name: (m[1] as string).toLowerCase(),
    attributes: [...(m[2] as string).matchAll(/([^\s="'>/]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?/g)].map(
      (a) => a[1] as string,
    ),
  }));

/** A record whose every text field holds `text`, and a timeline event that does too. */
function hostile(text: string, i: number): { record: IncidentRecord; event: IncidentEvent } {
  const key = `inc-hostile-${i}${text}`;
  return {
    record: incidentRecord({
      key,
      audit: text,
      route: text,
      values: { region: text, [text]: "x" },
      common: { reason: text },
      examples: [{ key: text, summary: text }],
      openedAt: new Date(Date.UTC(2026, 10, 28, i)).toISOString(),
      severity: text as IncidentRecord["severity"],
    }),
    event: {
      key,
      at: new Date(Date.UTC(2026, 10, 28, i)).toISOString(),
      what: ["opened", "acknowledged"],
      joined: 1,
      changed: 0,
      left: 0,
      reminded: 0,
      silenced: 1,
      silences: [text],
      inhibited: 1,
      inhibitedBy: [text],
      firing: 1,
      examples: [{ key: text, summary: text }],
      by: text,
      comment: text,
    },
  };
}

describe("the incident report page", () => {
  it("shows hostile label values, keys, summaries and comments as text, never as markup", () => {
    const made = HOSTILE_VALUES.map(hostile);
    const html = report(
      made.map((m) => m.record),
      { landscape: HOSTILE_VALUES[0], timelines: new Map(made.map((m) => [m.record.key, [m.event]])) },
    );
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain("&#39; onmouseover=&#39;alert(1)");
    // What looks like a reference stays the text it was: its `&` is escaped too.
    expect(html).toContain("&amp;lt;b&amp;gt; &amp; &lt;b&gt;bold&lt;/b&gt;");
    // Only the page's own elements and attributes: none came from the records.
    const found = tags(html);
    expect(
      found.filter(
        (t) =>
          ["img", "script", "iframe", "object", "embed", "b"].includes(t.name) && t.attributes.length > 0,
      ),
    ).toEqual([]);
    expect(found.filter((t) => t.name === "script")).toHaveLength(1);
    expect(found.filter((t) => t.name === "img")).toEqual([]);
    const attributes = new Set(found.flatMap((t) => t.attributes));
    for (const a of attributes)
      expect(a).toMatch(
        /^(lang|charset|http-equiv|content|name|class|id|href|viewBox|width|height|role|aria-label|aria-hidden|aria-sort|x|y|x1|x2|y1|y2|scope|data-type|data-v|type|colspan)$/,
      );
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    // An unknown severity is not a class name from data.
    expect(html).not.toMatch(/class="[^"]*[<>'][^"]*"/);
    expect(html).toContain('class="s-unknown"');
  });

  it("forbids every request in its Content-Security-Policy and allows its one style and one script by their hashes", () => {
    const html = report([incidentRecord()]);
    const policy = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)?.[1];
    expect(policy).toBeDefined();
    const directives = new Map(
      (policy as string).split(";").map((d) => {
        const [name, ...sources] = d.trim().split(/\s+/);
        return [name as string, sources];
      }),
    );
    const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
    const style = html.match(/<style>([\s\S]*?)<\/style>/)?.[1] as string;
    const script = html.match(/<script>([\s\S]*?)<\/script>/)?.[1] as string;
    expect(directives.get("default-src")).toEqual(["'none'"]);
    expect(directives.get("style-src")).toEqual([sha256(style)]);
    expect(directives.get("script-src")).toEqual([sha256(script)]);
    expect(directives.get("base-uri")).toEqual(["'none'"]);
    expect(directives.get("form-action")).toEqual(["'none'"]);
    expect([...directives.keys()].sort()).toEqual([
      "base-uri",
      "default-src",
      "form-action",
      "script-src",
      "style-src",
    ]);
    expect(policy).not.toContain("unsafe");
    // The policy comes before what it governs, and nothing on the page points outside it.
    expect(html.indexOf("Content-Security-Policy")).toBeLessThan(html.indexOf("<style>"));
    expect(markup(html)).not.toMatch(/\s(src|srcset|action|style|on\w+)=/i);
    expect([...markup(html).matchAll(/href="([^"]*)"/g)].every((m) => m[1]?.startsWith("#"))).toBe(true);
  });

  it("shows the window's counts and times to resolve, and one table row per record", () => {
    const records = [
      incidentRecord({ key: "a", openedAt: "2026-11-29T00:00:00.000Z", endedAt: "2026-11-29T00:10:00.000Z" }),
      incidentRecord({ key: "b", openedAt: "2026-11-29T01:00:00.000Z", endedAt: "2026-11-29T03:00:00.000Z" }),
      incidentRecord({ key: "c", openedAt: "2026-11-29T02:00:00.000Z", endedAt: undefined }),
    ];
    const html = report(records);
    const tile = (label: string) => html.match(new RegExp(`<b>([^<]*)</b><span>${label}`))?.[1];
    expect(tile("opened")).toBe("3");
    expect(tile("ended")).toBe("2");
    expect(tile("open at the end")).toBe("1");
    expect(tile("time to resolve, p50 \\(of 2\\)")).toBe("10m");
    expect(tile("time to resolve, p90")).toBe("2h");
    expect(html).toContain("Incidents · prod-eu · 2026-11-23 06:00 UTC to 2026-11-30 06:00 UTC");
    expect(html).toContain("Generated 2026-11-30 06:01 UTC");
    const table = html.slice(html.indexOf('<table id="incidents"'));
    const body = table.slice(table.indexOf("<tbody>"), table.indexOf("</tbody>"));
    expect(body.match(/<tr>/g)).toHaveLength(3);
    // Newest opening first, as the Opened heading says; the open one's duration is its age.
    expect([...body.matchAll(/<tr><td>([^<]+)</g)].map((m) => m[1])).toEqual(["c", "b", "a"]);
    expect(table).toMatch(
      /<th scope="col" data-type="num" aria-sort="descending"><button type="button">Opened/,
    );
    expect(body).toContain(">open 28h</td>");
  });

  it("stays bounded for thousands of incidents: the timeline draws the most recent, the page keeps the most recent timelines, and both say how many more", () => {
    const week = manyIncidentRecords(1_000, 5);
    const html = report(week.records, { timelines: week.timelines });
    expect(html.match(/<rect class="sev-/g)).toHaveLength(300);
    expect(html).toContain("The 300 most recent incidents are drawn; 700 more are in the table.");
    expect(html.match(/<details /g)).toHaveLength(200);
    expect(html).toContain("The 200 most recent incidents' timelines are here; 800 more");
    expect(html.match(/<tr><td>/g)?.length).toBeGreaterThanOrEqual(1_000);
    // Each shown timeline is linked from its row, by an ID of the page's own.
    expect(html.match(/<a href="#timeline-\d+">/g)).toHaveLength(200);
  });

  it("says so when nothing happened in the window, without a percentile it does not have", () => {
    const html = report([]);
    expect(html).toContain("Nothing flapped in the window.");
    expect(html).toContain("No incident in the window.");
    expect(html.match(/<b>—<\/b>/g)).toHaveLength(2);
    expect(html).toContain("0 incidents");
  });
});
