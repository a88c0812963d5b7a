import { iso, literal, object, enum as oneOf, type output, string } from "zod";
import { TEST_V1 } from "./test-v1-name.ts";

// The structured test notice's zod schema, apart from the code that builds notices (as the
// health notice's): the Slack and pager functions parse notices, the audit function and the CLI
// only build them.

const Time = iso.datetime({ offset: true, error: "expected an ISO 8601 date-time" });

/**
 * `fleet-auditor.test/v1`: the `default` (Lambda, SQS) of a test notice, which `notify test`
 * sends through one topic to prove that route end to end. It says nothing about the fleet.
 * `key` is unique to the test and its topic: a pager triggers under it and resolves it at once.
 */
export const TestV1Schema = object({
  schema: literal(TEST_V1),
  landscape: string().optional(),
  testId: string().describe("the notify test that sent it: one ID for the message of each topic it chose"),
  key: string().describe("unique to this test and topic: a pager opens and at once closes an alert under it"),
  topic: oneOf(["alerts", "incidents", "critical"]).describe("the topic it was published to"),
  at: Time.describe("when the test was sent"),
  sender: string().describe("who sent it, as the sender gave it: a user name, or console (one line)"),
  channels: string().describe("where this topic's message should show: e-mail, Slack, the pager (one line)"),
  subject: string(),
  text: string().describe("the notice in one line, as e-mail's first line"),
});

export type TestV1 = output<typeof TestV1Schema>;
