import { readdirSync, readFileSync } from "node:fs";
import {
  parseIncidentSummary,
  parseNotifyTest,
  parseRunInput,
  parseShowRun,
  parseStatusQuery,
} from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";

const dir = new URL("../../events/", import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith(".json"));

describe("console test events in events/", () => {
  const audits = files.filter((f) => !/^(apps|runs|notify|incidents)-/.test(f));
  // Each kind's tests below are made from its files: a kind without one would check nothing.
  it("holds an event of each kind: audit, status query, run report, topic test, incident summary", () => {
    const prefixes = ["apps-", "runs-", "notify-", "incidents-"];
    const kinds = [audits, ...prefixes.map((p) => files.filter((f) => f.startsWith(p)))];
    expect(kinds.map((k) => k.length > 0)).toEqual([true, true, true, true, true]);
  });
  it.each(audits)("%s is a valid audit input", (file) => {
    expect(() => parseRunInput(JSON.parse(readFileSync(new URL(file, dir), "utf8")))).not.toThrow();
  });
  it.each(files.filter((f) => f.startsWith("apps-")))("%s is a valid status query", (file) => {
    expect(() => parseStatusQuery(JSON.parse(readFileSync(new URL(file, dir), "utf8")))).not.toThrow();
  });
  it.each(files.filter((f) => f.startsWith("runs-")))(
    "%s asks the audit function for a run's report",
    (file) => {
      expect(parseShowRun(JSON.parse(readFileSync(new URL(file, dir), "utf8")))).toMatch(/^[\w-]+$/);
    },
  );
  it.each(files.filter((f) => f.startsWith("notify-")))(
    "%s asks the audit function for a test of every topic",
    (file) => {
      expect(parseNotifyTest(JSON.parse(readFileSync(new URL(file, dir), "utf8")))).toEqual({});
    },
  );
  it.each(files.filter((f) => f.startsWith("incidents-")))(
    "%s asks the audit function for a window's incident summary, without publishing it",
    (file) => {
      const request = parseIncidentSummary(JSON.parse(readFileSync(new URL(file, dir), "utf8")));
      expect(request).toMatchObject({ window: expect.stringMatching(/^\d+[mhd]$/), publish: false });
    },
  );
});
