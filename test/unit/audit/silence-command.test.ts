import { matchesAll, parseMatchers, silenceCommand } from "@fleet-auditor/audit";
import { describe, expect, it } from "vitest";
import { shellWords } from "../../helpers/shell-words.ts";

/** The matchers the `--match` words of a suggested command hold, as the CLI reads them. */
const matchersOf = (command: string) => {
  const words = shellWords(command);
  return words.flatMap((w, i) => (words[i - 1] === "--match" ? parseMatchers(w) : []));
};

describe("the suggested silence command", () => {
  it("writes each value so that --match reads it back exactly, quoted only where it must be", () => {
    const labels = [
      ["state", "failed"],
      ["reason", 'quota "m5.large", retry {later} \\ now'],
      ["region", "eu-west-1"],
    ] as const;
    const command = silenceCommand({ audit: "failing", labels }) as string;
    expect(command).toContain("--match state=failed --match ");
    expect(command).toContain(" --match region=eu-west-1 ");
    expect(matchersOf(command)).toEqual(labels.map(([name, value]) => ({ name, op: "=", value })));
    expect(matchesAll(matchersOf(command), Object.fromEntries(labels))).toBe(true);
  });

  it("is left out when a matcher could not be read back as it is", () => {
    // A label name the CLI refuses (an audit registered elsewhere), a value no text can carry.
    expect(silenceCommand({ audit: "x", labels: [["Region", "eu"]] })).toBeUndefined();
    expect(silenceCommand({ audit: "x", labels: [["reason", "a\ud800b"]] })).toBeUndefined();
    expect(silenceCommand({ audit: "x", labels: [["reason", "a\ud83d\ude00b"]] })).toBeDefined();
  });
});
