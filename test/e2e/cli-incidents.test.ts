import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IncidentRecord, IncidentStats } from "@fleet-auditor/audit";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runArgs, cli as runCommandLine } from "../helpers/cli.ts";
import { useKebSimulator } from "../helpers/keb.ts";

// The incident history through the CLI, from real runs: `fleet-auditor run` against the KEB
// simulator, hour by hour over a fleet this test changes, with one chat route grouped by region,
// so that every incident is one region's episode and the numbers below are a hand count of the
// runs (`HAND_COUNT`), not read back from what the history computed.

const kit = useKebSimulator({ fleet: { size: 40, seed: 8, flagged: 0 } });
const ROUTES = JSON.stringify([{ name: "default", receiver: "incidents", groupBy: ["region"] }]);
const cli = (args: string[]) =>
  runCommandLine(args, { env: { KEB_TOKEN: "local-token", LANDSCAPE: "e2e", ROUTES } });

const HOUR = 3_600_000;
const dir = mkdtempSync(join(tmpdir(), "fa-incidents-"));
// Ten hours ago, to the minute: runs at t0 + h; `--since` counts back from the real clock.
const t0 = Math.floor((Date.now() - 10 * HOUR) / 60_000) * 60_000;
const at = (h: number): string => new Date(t0 + h * HOUR).toISOString();
let regionA = "";
let regionB = "";

/**
 * Hour by hour (A1, A2 in region A; B1 in region B), and what a hand count makes of it:
 * h0 A1 fails: A opens (I1) · h1 A2 fails, joins I1; B1 fails: B opens (I2) · h2 A1 recovers ·
 * h3 A2 recovers: I1 ends after 3h · h4 A1 fails: A opens again (I3) · h5 A1 recovers: I3 ends
 * after 1h · h6 A2 fails: A opens a third time (I4) · h7 A2 recovers: I4 ends after 1h. B1 never
 * recovers: I2 is open. Opened 4, ended 3 (1h, 1h, 3h: nearest-rank p50 1h, p90 3h), open 1;
 * region A opened and ended 3 times: flapping at the default bar of 3.
 */
const HAND_COUNT = { opened: 4, ended: 3, open: 1, p50Ms: HOUR, p90Ms: 3 * HOUR };

beforeAll(async () => {
  const byRegion = new Map<string, string[]>();
  for (const i of kit.sim.fleet.all())
    if (i.active) byRegion.set(i.region, [...(byRegion.get(i.region) ?? []), i.instanceID]);
  const regions = [...byRegion].filter(([, ids]) => ids.length >= 2);
  expect(regions.length).toBeGreaterThanOrEqual(2);
  const [[a, [a1, a2]], [b, [b1]]] = regions as [[string, string[]], [string, string[]]];
  regionA = a;
  regionB = b;
  const fleet = kit.sim.fleet;
  const steps: Array<() => void> = [
    () => fleet.fail(a1 as string),
    () => [fleet.fail(a2 as string), fleet.fail(b1 as string)],
    () => fleet.recover(a1 as string),
    () => fleet.recover(a2 as string),
    () => fleet.fail(a1 as string),
    () => fleet.recover(a1 as string),
    () => fleet.fail(a2 as string),
    () => fleet.recover(a2 as string),
  ];
  for (const [h, step] of steps.entries()) {
    step();
    const run = await cli(runArgs("failing", kit.sim.url, dir, "--now", at(h), "-o", "json"));
    expect(run.code, run.stderr).toBe(0);
  }
}, 30_000);

const list = async (...args: string[]): Promise<IncidentRecord[]> => {
  const out = await cli(["incidents", "list", "--state-dir", dir, "-o", "json", ...args]);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
};

describe("fleet-auditor incidents", () => {
  it("lists each episode, newest opening first, with the times and counts its runs gave it", async () => {
    const records = await list();
    expect(records.map((r) => [r.values.region, r.openedAt, r.endedAt, r.durationMs, r.members])).toEqual([
      [regionA, at(6), at(7), HOUR, 1],
      [regionA, at(4), at(5), HOUR, 1],
      [regionB, at(1), undefined, undefined, 1],
      [regionA, at(0), at(3), 3 * HOUR, 2],
    ]);
    expect(records[3]).toMatchObject({ audit: "failing", route: "default", peak: 2, firing: 0, events: 4 });
    expect((await list("--open")).map((r) => r.values.region)).toEqual([regionB]);
    // Open at some time in the last 4 hours (since h6): I4, and I2, still open; I3 ended at h5.
    expect((await list("--since", "4h")).map((r) => r.openedAt)).toEqual([at(6), at(1)]);
    expect(await list("--since", at(8))).toEqual([records[2]]);
    expect(await list("--audit", "expired")).toEqual([]);

    const table = await cli(["incidents", "list", "--state-dir", dir]);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^KEY +AUDIT +ROUTE +WHAT +SEVERITY +OPENED +ENDED +DURATION +MEMBERS +FIRING +PAGES +FLAPPING$/,
    );
    expect(lines).toHaveLength(5);
    const minute = (h: number) => at(h).slice(0, 16).replace("T", " ");
    expect(lines[1]).toMatch(
      new RegExp(
        `^${records[0]?.key} +failing +default +${regionA} +\\w+ +${minute(6)} +${minute(7)} +1h +1 +0 +0 +3 times$`,
      ),
    );
    expect(lines[3]).toMatch(new RegExp(` ${regionB} +\\w+ +${minute(1)} +open +- +1 +1 +0 +-$`));
    const rows = await cli(["incidents", "list", "--state-dir", dir, "--no-headers"]);
    expect(rows.stdout).toBe(`${lines.slice(1).join("\n")}\n`);
    expect((await cli(["incidents", "list", "--state-dir", dir, "--audit", "expired"])).stdout).toBe(
      "no incidents\n",
    );

    const csv = (await cli(["incidents", "list", "--state-dir", dir, "-o", "csv"])).stdout
      .trimEnd()
      .split("\r\n");
    expect(csv[0]).toBe(
      "key,audit,route,receiver,what,severity,openedAt,startsAt,endedAt,durationMs,members,peak,firing,changes,reminders,pages,silenced,inhibited,events,flapping",
    );
    expect(csv[4]).toMatch(
      new RegExp(
        `^${records[3]?.key},failing,default,incidents,${regionA},\\w+,${at(0)},[^,]+,${at(3)},10800000,2,2,0,0,0,0,0,0,4,3$`,
      ),
    );
    const yaml = await cli(["incidents", "list", "--state-dir", dir, "-o", "yaml"]);
    expect(parse(yaml.stdout)).toEqual(records);
  });

  it("shows an incident's record and its timeline, oldest first, as its runs told it", async () => {
    const first = (await list()).at(-1) as IncidentRecord;
    const out = await cli(["incidents", "show", first.key, "--state-dir", dir, "-o", "json"]);
    expect(out.code, out.stderr).toBe(0);
    const { record, events } = JSON.parse(out.stdout);
    expect(record).toEqual(first);
    expect(
      events.map((e: { at: string; what: string[]; joined: number; left: number; firing: number }) => [
        e.at,
        e.what,
        e.joined,
        e.left,
        e.firing,
      ]),
    ).toEqual([
      [at(0), ["opened"], 1, 0, 1],
      [at(1), ["joined"], 1, 0, 2],
      [at(2), ["left"], 0, 1, 1],
      [at(3), ["ended", "left"], 0, 1, 0],
    ]);
    expect(
      parse((await cli(["incidents", "show", first.key, "--state-dir", dir, "-o", "yaml"])).stdout),
    ).toEqual({
      record,
      events,
    });
    const text = (await cli(["incidents", "show", first.key, "--state-dir", dir])).stdout;
    expect(text).toContain(`Key:          ${first.key}\n`);
    expect(text).toContain(`Ended:        ${at(3).slice(0, 16).replace("T", " ")} UTC, after 3h\n`);
    expect(text).toContain("Members:      2 joined, at most 2 at once, 0 firing\n");
    expect(text).toMatch(
      /\nTIME +WHAT +JOINED +LEFT +CHANGED +REMINDED +FIRING +PAGE +HELD BACK +EXAMPLES\n/,
    );
    expect(text).toMatch(/\n\S+ \S+ +ended, left +0 +1 +0 +0 +0 +- +- +c-\w+\n$/);

    // The third episode of region A in a day opened flapping, told in the second one's thread.
    const [fourth, third] = await list();
    expect(fourth?.flapping).toEqual({ episodes: 3, postedIn: third?.key });
    const flapping = (await cli(["incidents", "show", fourth?.key as string, "--state-dir", dir])).stdout;
    expect(flapping).toContain(
      `Flapping:     flapping (3 times in the window), told in ${third?.key}'s thread\n`,
    );
  });

  it("counts the window as a hand count of the runs does: opened, ended, open, time to resolve, flapping", async () => {
    const stats = async (...args: string[]): Promise<IncidentStats> => {
      const out = await cli(["incidents", "stats", "--state-dir", dir, "-o", "json", ...args]);
      expect(out.code, out.stderr).toBe(0);
      return JSON.parse(out.stdout);
    };
    const month = await stats();
    expect(month).toMatchObject({
      opened: HAND_COUNT.opened,
      ended: HAND_COUNT.ended,
      open: HAND_COUNT.open,
      timeToResolve: { count: HAND_COUNT.ended, p50Ms: HAND_COUNT.p50Ms, p90Ms: HAND_COUNT.p90Ms },
      byAudit: [{ value: "failing", opened: 4, ended: 3, p50Ms: HOUR, p90Ms: 3 * HOUR }],
      byRegion: [
        { value: regionA, opened: 3, ended: 3, p50Ms: HOUR, p90Ms: 3 * HOUR },
        { value: regionB, opened: 1, ended: 0 },
      ],
    });
    expect(month.flapping).toEqual([
      expect.objectContaining({
        audit: "failing",
        route: "default",
        values: { region: regionA },
        episodes: 3,
      }),
    ]);
    expect(month.noisiest[0]).toMatchObject({ values: { region: regionA }, events: 4, members: 2 });
    // Since h4: I3 and I4 opened and ended in it; I2 is open at its end.
    expect(await stats("--since", at(4))).toMatchObject({ opened: 2, ended: 2, open: 1 });
    expect((await stats("--flapping", "4")).flapping).toEqual([]);
    expect(parse((await cli(["incidents", "stats", "--state-dir", dir, "-o", "yaml"])).stdout)).toMatchObject(
      {
        opened: 4,
        ended: 3,
      },
    );

    const table = (await cli(["incidents", "stats", "--state-dir", dir])).stdout;
    expect(table).toMatch(/^incidents from .* UTC: 4 opened, 3 ended, 1 open at the end\n/);
    expect(table).toContain("time to resolve (3 ended): p50 1h, p90 3h\n");
    expect(table).toMatch(new RegExp(`\\n${regionA} +3 +3 +1h +3h\\n`));
    expect(table).toMatch(
      new RegExp(`\\nfailing +default +${regionA} +flapping \\(3 times in the window\\) +inc-`),
    );
  });

  it("writes the window as one self-contained HTML page, each incident and its timeline in it", async () => {
    const records = await list();
    const out = await cli(["incidents", "report", "--state-dir", dir]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^<!doctype html>/);
    expect(out.stdout).toContain('http-equiv="Content-Security-Policy"');
    expect(out.stdout).toContain("e2e");
    for (const r of records) expect(out.stdout).toContain(r.key);
    // Each incident's timeline was read for the page: four folded timelines.
    expect(out.stdout.match(/<details id="timeline-\d+">/g)).toHaveLength(records.length);
    // -o html is the default said; --audit keeps only that audit's incidents, none here.
    const html = await cli(["incidents", "report", "--state-dir", dir, "-o", "html"]);
    expect(html.stdout).toMatch(/^<!doctype html>/);
    const none = await cli(["incidents", "report", "--state-dir", dir, "--audit", "expired"]);
    for (const r of records) expect(none.stdout).not.toContain(r.key);
  });

  it("exits 1 naming the problem for an unknown incident or bad input", async () => {
    const missing = await cli(["incidents", "show", "inc-nope", "--state-dir", dir]);
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toBe(`fleet-auditor: no incident inc-nope in the embedded store in ${dir}\n`);
    const refused: Array<[string[], string]> = [
      [["incidents"], "incidents needs a command: list, show, stats, report, ack, unack"],
      [["incidents", "lst"], "unknown incidents command lst; did you mean list?"],
      [["incidents", "show"], "incidents show needs a KEY"],
      [["incidents", "list", "--since", "soon"], "--since soon: expected an ISO time or a duration"],
      [["incidents", "list", "--audit", "nightly"], "--audit nightly: one of failing, expired, applications"],
      [["incidents", "stats", "--flapping", "1"], "--flapping must be a whole number of 2 or more, got 1"],
      [["incidents", "stats", "-o", "csv"], "--output must be json, yaml or table, got csv"],
      [["incidents", "stats", "--open"], "incidents stats does not take --open (incidents list does)"],
      [
        ["incidents", "show", "k", "--since", "1d"],
        "incidents show does not take --since (incidents list, incidents stats and incidents report do)",
      ],
      [
        ["incidents", "list", "--flapping", "2"],
        "incidents list does not take --flapping (incidents stats does)",
      ],
      [["incidents", "report", "-o", "json"], "--output must be html, got json"],
      [["incidents", "report", "--open"], "incidents report does not take --open (incidents list does)"],
    ];
    for (const [args, message] of refused) {
      const out = await cli([...args, "--state-dir", dir]);
      expect(out.code, args.join(" ")).toBe(1);
      expect(out.stderr).toContain(message);
    }
  });
  it("acknowledges an open incident once, tells it in the outbox, shows who, and takes it back", async () => {
    const [open] = await list("--open");
    const key = open?.key as string;
    const ack = await cli([
      "incidents",
      "ack",
      key,
      "--by",
      "alice",
      "--comment",
      "on it",
      "--state-dir",
      dir,
    ]);
    expect(ack.code, ack.stderr).toBe(0);
    expect(ack.stdout).toBe(
      `incident ${key} acknowledged; told: messages appended to ${join(dir, "outbox.jsonl")}\n`,
    );
    const again = await cli(["incidents", "ack", key, "--by", "bob", "--state-dir", dir]);
    expect(again.stdout).toBe(`incident ${key} was acknowledged already: nothing changed\n`);
    const shown = JSON.parse(
      (await cli(["incidents", "show", key, "--state-dir", dir, "-o", "json"])).stdout,
    );
    expect(shown.record.acknowledged).toMatchObject({ by: "alice", comment: "on it" });
    expect(shown.events.at(-1)).toMatchObject({ what: ["acknowledged"], by: "alice" });
    const outbox = readFileSync(join(dir, "outbox.jsonl"), "utf8");
    expect(outbox).toContain(`Incident ${key} acknowledged by alice: on it.`);
    const unack = await cli(["incidents", "unack", key, "--by", "alice", "--state-dir", dir]);
    expect(unack.stdout).toContain(`incident ${key} no longer acknowledged`);
    const gone = await cli(["incidents", "ack", "inc-nope", "--state-dir", dir]);
    expect(gone).toMatchObject({ code: 1, stdout: "" });
    expect(gone.stderr).toBe(`fleet-auditor: no open incident inc-nope in the embedded store in ${dir}\n`);
    const ended = (await list()).find((r) => r.endedAt);
    expect((await cli(["incidents", "ack", ended?.key as string, "--state-dir", dir])).code).toBe(1);
    expect((await cli(["incidents", "ack", key, "-o", "json", "--state-dir", dir])).stderr).toContain(
      "incidents ack does not take --output",
    );
  });
});
