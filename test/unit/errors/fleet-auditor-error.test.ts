import { SilenceMatcherError, UnknownAuditError } from "@fleet-auditor/audit";
import { UsageError } from "@fleet-auditor/cli";
import { FleetAuditorError } from "@fleet-auditor/errors";
import { KebError, KebHttpError } from "@fleet-auditor/keb/model";
import { BadQueryError } from "@fleet-auditor/keb-kubeedge-sim";
import { MetaserverParseError } from "@fleet-auditor/metaserver";
import { PagerDutyError, PublishError, SlackPostError } from "@fleet-auditor/notify";
import { LeaseLostError, TableMissingError, WriteRefusedError } from "@fleet-auditor/store";
import { RunDeadlineError, SecretUnreadableError } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";

const cause = new Error("the SDK's own error");

/** One error of each package, with the code and name its errors.ts gives it. */
const errors: Array<[string, Error, string]> = [
  ["UnknownAuditError", new UnknownAuditError("nope", ["failing"]), "AUDIT_UNKNOWN"],
  ["SilenceMatcherError", new SilenceMatcherError("a=~(", "bad regex", { cause }), "SILENCE_MATCHER"],
  ["UsageError", new UsageError("no such command", { cause }), "CLI_USAGE"],
  ["KebHttpError", new KebHttpError({ status: 503, bodyExcerpt: "", url: "/runtimes", cause }), "KEB_HTTP"],
  ["BadQueryError", new BadQueryError("while getting query parameters: x"), "SIM_BAD_QUERY"],
  ["MetaserverParseError", new MetaserverParseError("MS_NOT_JSON", "not JSON", { cause }), "MS_NOT_JSON"],
  ["PublishError", new PublishError("refused", { cause }), "NOTIFY_PUBLISH"],
  ["SlackPostError", new SlackPostError("refused", { status: 400, body: "invalid_blocks" }), "NOTIFY_SLACK"],
  [
    "PagerDutyError",
    new PagerDutyError("refused", { status: 400, action: "trigger", dedupKey: "k", errors: [] }),
    "NOTIFY_PAGERDUTY",
  ],
  ["LeaseLostError", new LeaseLostError("failing", "run-1"), "STORE_LEASE_LOST"],
  ["TableMissingError", new TableMissingError("audit", "us-east-1", { cause }), "STORE_TABLE_MISSING"],
  ["WriteRefusedError", new WriteRefusedError("app-1", cause), "STORE_REFUSED"],
  ["RunDeadlineError", new RunDeadlineError("listing"), "RUN_DEADLINE"],
  [
    "SecretUnreadableError",
    new SecretUnreadableError("SLACK_WEBHOOK_URL", "s", { cause }),
    "SECRET_UNREADABLE",
  ],
];

describe("FleetAuditorError, the one base of every package's errors", () => {
  it.each(errors)("is the base of %s, which keeps its code, its name and its cause", (name, error, code) => {
    expect(error).toBeInstanceOf(FleetAuditorError);
    expect(error).toBeInstanceOf(Error);
    expect((error as FleetAuditorError).code).toBe(code);
    expect(error.name).toBe(name);
    if ("cause" in error) expect(error.cause).toBe(cause);
  });

  it("leaves a package's own base in place for callers that ask for it", () => {
    const error = new KebHttpError({ status: 0, bodyExcerpt: "", url: "/runtimes", detail: "refused" });
    expect(error).toBeInstanceOf(KebError);
    expect(error.message).toBe("GET /runtimes failed with refused");
  });

  it("keeps the cause it is given, and has none when given none", () => {
    expect(new FleetAuditorError("X", "with", { cause }).cause).toBe(cause);
    expect("cause" in new FleetAuditorError("X", "without")).toBe(false);
  });
});
