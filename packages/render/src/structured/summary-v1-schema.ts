import { array, iso, literal, number, object, type output, record, string } from "zod";
import { SUMMARY_V1 } from "./summary-v1-name.ts";

// The structured incident summary's zod schema, apart from the code that builds summaries (as the
// health notice's): the Slack function parses summaries, the audit function only builds them.

const Time = iso.datetime({ offset: true, error: "expected an ISO 8601 date-time" });
const Count = number().int().nonnegative();
const Ms = number().nonnegative();
const Values = record(string(), string()).describe("the incident's groupBy labels and their values");

const Breakdown = array(
  object({
    value: string(),
    opened: Count,
    ended: Count,
    p50Ms: Ms.optional(),
    p90Ms: Ms.optional(),
  }),
);

/**
 * `fleet-auditor.summary/v1`: the `default` (Lambda, SQS) of an incident summary, the statistics
 * of a window's incidents (`incidentStats`): how many opened, ended and are still open, how long
 * they took to resolve, broken down by audit, reason and region, which kept coming back
 * (`flapping`) and which were the noisiest. Lists are cut to their first rows (most first);
 * `more` counts the rows each list left out. `key` is the summary's: the same window of the same
 * audits and landscape has the same key.
 */
export const SummaryV1Schema = object({
  schema: literal(SUMMARY_V1),
  landscape: string().optional(),
  key: string().describe("the summary's key: landscape, audits and window"),
  window: string().describe('the window as it was asked for: "7d", "24h"'),
  since: Time.describe("the window's start"),
  until: Time.describe("the window's end: when the summary was asked for, or its schedule's time"),
  audits: array(string()).describe("the audits whose incidents it counts"),
  opened: Count.describe("incidents opened in the window"),
  ended: Count.describe("incidents ended in the window"),
  open: Count.describe("incidents still open at the window's end"),
  timeToResolve: object({ count: Count, p50Ms: Ms.optional(), p90Ms: Ms.optional() }).describe(
    "nearest-rank percentiles of the time to resolve of the incidents that ended in the window; absent when none did",
  ),
  byAudit: Breakdown,
  byReason: Breakdown.describe("by the incidents' reason; (mixed) when their members have several"),
  byRegion: Breakdown.describe("by the incidents' region; (mixed) when their members are in several"),
  flapping: array(
    object({
      audit: string(),
      route: string(),
      values: Values,
      episodes: Count.describe("episodes that opened and ended in the window"),
      keys: array(string()).describe("the first episodes' keys, oldest first"),
    }),
  ),
  noisiest: array(
    object({
      key: string(),
      audit: string(),
      route: string(),
      values: Values,
      events: Count,
      members: Count,
      pages: Count,
      reminders: Count,
      changes: Count,
    }),
  ),
  more: record(string(), Count).describe("rows each list left out, by the list's name"),
  commands: object({
    stats: string().optional().describe("the command that prints these statistics, and the rest"),
    report: string().optional().describe("the command that writes the window's incidents as an HTML page"),
  }),
  subject: string(),
  text: string().describe("the summary in one line, as e-mail's first line"),
});

export type SummaryV1 = output<typeof SummaryV1Schema>;
