import { describe, expect, it } from "vitest";
import { reportCommandIn } from "../../../packages/cli/src/backend.ts";

describe("the report command a CLI run quotes", () => {
  it("names the store it reads, every value shell-quoted", () => {
    expect(reportCommandIn("/tmp/my state", {})("run-1")).toBe(
      "fleet-auditor runs show run-1 --state-dir '/tmp/my state'",
    );
    expect(reportCommandIn(".fleet-auditor", { AUDIT_TABLE: "t$(id)" })("run-1")).toBe(
      "AUDIT_TABLE='t$(id)' fleet-auditor runs show run-1",
    );
  });

  it("points to the list of runs when a value cannot be pasted safely, never to an unquoted one", () => {
    expect(reportCommandIn("/tmp/a\nb", {})("run-$(id)")).toBe("fleet-auditor runs list");
  });
});
