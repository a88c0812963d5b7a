import {
  byWhom,
  DEFAULT_STATE_DIR,
  parseDuration,
  parseIsoTime,
  parseKeyValues,
  parseLimit,
  parseOutput,
  parseSince,
  parseTimerDuration,
  stateDirOption,
  UsageError,
} from "@fleet-auditor/cli";
import { describe, expect, it } from "vitest";

const NOW = new Date(Date.UTC(2026, 10, 30, 12));

describe("args: what the commands parse alike", () => {
  it("reads durations in seconds, minutes, hours and days, and nothing else", () => {
    expect([parseDuration("90s"), parseDuration("30m"), parseDuration("4h"), parseDuration("2d")]).toEqual([
      90_000, 1_800_000, 14_400_000, 172_800_000,
    ]);
    for (const bad of [
      "",
      "1",
      "1w",
      "-1h",
      "1.5h",
      "h",
      "1h30m",
      "99999999999999d",
      "99999999999d",
      "3651d",
    ])
      expect(parseDuration(bad)).toBeUndefined();
  });

  it("reads --since as a duration back from now or as an ISO time", () => {
    expect(parseSince("90s", NOW)).toEqual(new Date(NOW.getTime() - 90_000));
    expect(parseSince("2026-11-29T06:00:00Z", NOW)).toEqual(new Date("2026-11-29T06:00:00Z"));
    expect(() => parseSince("yesterday", NOW)).toThrow(
      /--since yesterday: expected an ISO time or a duration/,
    );
    expect(() => parseSince("2026-11-29", NOW)).toThrow(UsageError);
    expect(parseIsoTime("2026-13-45T00:00:00Z")).toBeUndefined();
    expect(parseIsoTime("2026-02-30T00:00:00Z")).toBeUndefined();
    expect(parseIsoTime("2028-02-29T00:00:00Z")).toEqual(new Date("2028-02-29T00:00:00Z"));
  });

  it("reads repeated KEY=VALUE options, values with = included, and names the allowed keys", () => {
    const keys = { plan: "plans", region: "regions" } as const;
    const parsed = parseKeyValues(["plan=trial", "region=eu=1", "plan=aws"], keys, "--filter");
    expect(Object.fromEntries(parsed)).toEqual({ plans: ["trial", "aws"], regions: ["eu=1"] });
    for (const bad of ["colour=red", "plan=", "=trial", "plan", "constructor=x", "toString=y"]) {
      expect(() => parseKeyValues([bad], keys, "--filter"), bad).toThrow(
        `--filter ${bad}: expected KEY=VALUE with KEY one of plan, region`,
      );
    }
  });

  it("reads KEY=A,B as KEY=A KEY=B where commas are asked for, and refuses an empty value between them", () => {
    const keys = { plan: "plans", region: "regions" } as const;
    const parsed = parseKeyValues(["plan=trial,aws", "plan=azure", "region=eu"], keys, "--filter", {
      commas: true,
    });
    expect(Object.fromEntries(parsed)).toEqual({ plans: ["trial", "aws", "azure"], regions: ["eu"] });
    expect(Object.fromEntries(parseKeyValues(["plan=trial,aws"], keys, "--filter"))).toEqual({
      plans: ["trial,aws"],
    });
    for (const bad of ["plan=trial,", "plan=,aws", "plan=trial,,aws"])
      expect(() => parseKeyValues([bad], keys, "--filter", { commas: true }), bad).toThrow(
        `--filter ${bad}: an empty value in a comma-separated list`,
      );
  });

  it("takes a timer's duration only as long as Node's timers hold, in the unit it was given", () => {
    expect(parseTimerDuration("10m", "--deadline")).toBe(600_000);
    expect(parseTimerDuration("24d", "--deadline")).toBe(24 * 86_400_000);
    expect(parseTimerDuration("2147483s", "--deadline")).toBe(2_147_483_000);
    for (const [value, most] of [
      ["25d", "24d"],
      ["597h", "596h"],
      ["35792m", "35791m"],
      ["2147484s", "2147483s"],
    ])
      expect(() => parseTimerDuration(value as string, "--deadline"), value).toThrow(
        `--deadline ${value}: Node's timers hold at most 2^31-1 ms (about 24.8 days): give ${most} or less`,
      );
    expect(() => parseTimerDuration("0m", "--deadline")).toThrow("give a duration longer than 0");
    expect(() => parseTimerDuration("soon", "--deadline")).toThrow("--deadline soon: expected a duration");
  });

  it("names who acts from --by, else $USER, else the account, and nobody when none is known", () => {
    const account = () => "svc-ops";
    expect(byWhom("ana", { USER: "bo" }, account)).toBe("ana");
    expect(byWhom(undefined, { USER: "bo" }, account)).toBe("bo");
    expect(byWhom(" ", { USER: "bo" }, account)).toBe("bo");
    expect(byWhom("", {}, account)).toBe("svc-ops");
    expect(byWhom(undefined, { USER: "" }, () => undefined)).toBeUndefined();
    expect(byWhom(undefined, {})).toEqual(expect.any(String));
  });

  it("offers json, yaml and table output (csv where a command offers it), and one state-dir default", () => {
    expect(parseOutput("json")).toBe("json");
    expect(parseOutput("yaml")).toBe("yaml");
    expect(parseOutput("table")).toBe("table");
    expect(() => parseOutput("text")).toThrow("--output must be json, yaml or table, got text");
    expect(() => parseOutput("csv")).toThrow("--output must be json, yaml or table, got csv");
    expect(parseOutput("csv", ["json", "csv"])).toBe("csv");
    expect(stateDirOption["state-dir"].default).toBe(DEFAULT_STATE_DIR);
  });

  it("takes a positive integer limit", () => {
    expect(parseLimit(undefined)).toBeUndefined();
    expect(parseLimit("25")).toBe(25);
    for (const bad of ["0", "-1", "2.5", "ten", ""]) expect(() => parseLimit(bad), bad).toThrow(/--limit/);
  });

  it("gives a usage error a stable code and no usage text: the CLI points to --help instead", () => {
    expect(() => parseOutput("xml")).toThrow(
      expect.objectContaining({ code: "CLI_USAGE", name: "UsageError" }),
    );
    expect(new UsageError("x")).not.toHaveProperty("usage");
  });
});
