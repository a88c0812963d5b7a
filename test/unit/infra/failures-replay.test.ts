import { readFileSync } from "node:fs";
import { parseRunInput } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import { section } from "../../helpers/markdown.ts";

// The runbook's replay of a failed invocation: a Lambda on-failure destination wraps the event
// in its failure record, so the step must invoke the function with the record's
// `requestPayload`, never with the record (which no function takes).

const ROOT = new URL("../../../", import.meta.url);
const RECORD = JSON.parse(
  readFileSync(new URL("test/fixtures/lambda/on-failure-record.json", ROOT), "utf8"),
) as Record<string, unknown>;

describe("the Failures replay step in docs/operate.md", () => {
  it("invokes the function with the failure record's requestPayload, the event it was given", () => {
    const entry = section(readFileSync(new URL("docs/operate.md", ROOT), "utf8"), "failuresnotempty") ?? "";
    const filter = /jq '([^']+)' failure\.json > event\.json/.exec(entry)?.[1];
    expect(filter).toBe(".requestPayload");
    expect(entry).toMatch(/--payload fileb:\/\/event\.json/);
    // What the filter picks is an audit event; the record itself is not.
    const picked = RECORD[String(filter).slice(1)];
    expect(parseRunInput(picked)).toMatchObject({ audit: "failing" });
    expect(() => parseRunInput(RECORD)).toThrow(/invalid input/);
  });
});
