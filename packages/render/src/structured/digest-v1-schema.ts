import { SAFE_LINK, TRANSITION_KINDS } from "@fleet-auditor/audit";
import {
  array,
  boolean,
  iso,
  literal,
  number,
  object,
  enum as oneOf,
  type output,
  record,
  string,
} from "zod";
import { DIGEST_V1 } from "./digest-v1-name.ts";

// The structured digest's zod schema, apart from the code that builds digests: a function that
// only sends digests does not construct it at its cold start (validators and tests import it).

const Severity = oneOf(["critical", "warning", "info"]);
const Kind = oneOf(TRANSITION_KINDS);
// Renderers print times and links; a digest from another publisher must not print its own text
// where a time or a link stands. The builder holds its times to `DIGEST_TIME`, this one's pattern.
const Time = iso.datetime({ offset: true, error: "expected an ISO 8601 date-time" });
const Link = string().regex(SAFE_LINK, "expected an https: URL of printable ASCII without |, < or >");

/** Values of one label among a group's members, most first. */
const MixTally = object({
  top: array(object({ value: string(), count: number().int().positive() })).max(10),
  distinct: number().int().nonnegative().describe("how many distinct values its members have"),
});

const Operation = object({
  kind: string(),
  operationID: string(),
  state: string(),
  description: string(),
  errorReason: string().optional(),
  errorComponent: string().optional(),
  errorStep: string().optional(),
  updatedAt: Time.optional(),
  notCompletedSteps: array(string()).optional(),
});

const Edge = object({
  what: oneOf(["stuck", "refused", "quarantined"]),
  node: string(),
  key: string(),
  verb: string(),
  resource: string(),
  status: string().optional().describe("stuck: the Application's status"),
  since: Time.optional(),
  reason: string().describe("refused: the Kubernetes reason and code; quarantined: the code"),
  code: number().int().optional(),
  count: number().int().optional(),
  requests: array(string()).optional().describe("refused: 'verb resource' pairs, most frequent first"),
});

/** One transition with its finding, as programs read it (the run report's row, plus links). */
const DigestV1TransitionSchema = object({
  kind: Kind,
  severity: Severity,
  instanceID: string(),
  runtimeID: string(),
  shootName: string(),
  globalAccountID: string(),
  subAccountID: string(),
  plan: string(),
  region: string(),
  provider: string(),
  state: string().describe("the displayed state now (KEB's status.state)"),
  previousState: string().nullable().describe("the state the snapshot had; null when firing"),
  reason: string().describe('the error reason or failing step; "" when KEB gives none'),
  since: Time.describe("when its problem began (onset; ISO 8601)"),
  expiredAt: Time.optional(),
  ending: string().optional().describe("resolved: the state now, or 'no longer listed'"),
  operation: Operation.optional(),
  previousOperation: Operation.optional().describe("changed: the failing operation before"),
  edge: Edge.optional().describe(
    "the applications audit: a stuck Application, a refusing node or quarantined messages (instanceID is then the finding's key, region the node, plan the verb)",
  ),
  links: object({
    runtime: Link.optional(),
    runbook: Link.optional(),
  }),
  labels: record(string(), string())
    .optional()
    .describe("the finding's labels (added in place: readers of v1 that do not know it ignore it)"),
  firstSeenAt: Time.optional().describe(
    "when a run first saw it flagged; `since` is its onset (added in place)",
  ),
  incident: object({
    key: string().describe("incidentKey: stable for the incident's whole episode, never reused"),
    startsAt: Time.describe("when the incident began: its earliest member's onset"),
    ended: literal(true).optional().describe("its last member resolved in this run"),
  })
    .optional()
    .describe("the incident the transition belongs to (added in place)"),
  alert: object({
    key: string()
      .optional()
      .describe(
        "the finding's key; absent when it is the row's instanceID (as it is for every audit of this release)",
      ),
    summary: string().optional().describe("one line that names it; absent when it is the row's shootName"),
    subject: string()
      .max(1_000)
      .optional()
      .describe(
        "what a title calls it when a message tells it alone: state and reason first; only on its group's only member (added in place)",
      ),
    note: string()
      .max(1_000)
      .optional()
      .describe(
        "what a chat list says after its name; past its group's first row in the message, absent when it is that row's note and '' when it has none",
      ),
    inspect: string()
      .max(1_000)
      .optional()
      .describe(
        "the command that shows what it is about; only on its group's first row in the message (a chat shows one per group) and not for a resolution, absent when none can be pasted",
      ),
    details: array(object({ name: string().max(100), value: string().max(1_000) }))
      .max(50)
      .optional()
      .describe(
        "name/value pairs, most telling first (KEB: description, operation, shoot, region, instance); only when it is its group's one member (a lone finding's fields), absent in a list",
      ),
  })
    .optional()
    .describe(
      "the transition as channels render it, whatever its audit (in incident and pager messages; added in place): what a chat list shows of a row, and of a group's first row how to inspect it; absent on a row that has nothing its v1 fields and its group's first row do not say",
    ),
});

/** A group of transitions sharing kind, state, reason and region: one incident. */
const DigestV1GroupSchema = object({
  key: string().describe("kind|state|reason|region, stable across runs for one incident"),
  kind: Kind,
  severity: Severity,
  state: string(),
  reason: string(),
  region: string(),
  since: Time,
  count: number().int().positive(),
  plans: array(object({ plan: string(), count: number().int().positive() })),
  examples: array(string()).describe("the group's first instance IDs (at most 3)"),
  labels: record(string(), string())
    .optional()
    .describe("the groupBy labels its members share (added in place, as a transition's labels)"),
  edge: literal(true)
    .optional()
    .describe("the applications audit: region is a node, plans are verbs (silences match node)"),
  from: array(object({ was: string(), count: number().int().positive() }))
    .optional()
    .describe("a changed group: what its members were before, 'state (reason)', most first (added in place)"),
  words: object({
    noun: string().max(100).describe("what its members are: 'runtimes'"),
    tally: string().max(100).describe("what `plans` counts: 'plans', 'verbs'"),
    place: string().max(100).describe("the words before its place: 'in', 'on node'"),
  })
    .optional()
    .describe("the words channels tell it with (in incident and pager messages; added in place)"),
  mix: object({
    state: MixTally.optional(),
    reason: MixTally.optional(),
    place: MixTally.extend({
      label: string().max(100).describe("the place label: 'region', 'node'"),
    }).optional(),
  })
    .optional()
    .describe(
      "what its members are by the state, reason and place its groupBy leaves out (an incident grouped by audit alone), so that a title counts them rather than naming the first member's (added in place)",
    ),
});

/**
 * `fleet-auditor.digest/v1`: one run's digest (or one incident's news) for programs, in the
 * `default` key of each publish, which Lambda, SQS and other programs receive. `transitions` lists what fits the publish's size budget; `omitted` counts the
 * rest, which the run report (`report`) holds.
 */
export const DigestV1Schema = object({
  schema: literal(DIGEST_V1),
  audit: string(),
  landscape: string().optional(),
  runId: string(),
  at: Time.describe("when the run judged the fleet (ISO 8601)"),
  severity: Severity.describe("the most severe unresolved transition's; info when all resolved"),
  subject: string(),
  scan: object({
    complete: boolean(),
    incompleteReason: string().nullable(),
    listed: number().int().nonnegative(),
    flagged: number().int().nonnegative(),
  }),
  counts: object({
    firing: number().int().nonnegative(),
    changed: number().int().nonnegative(),
    reminder: number().int().nonnegative(),
    resolved: number().int().nonnegative(),
  }),
  groups: array(DigestV1GroupSchema),
  transitions: array(DigestV1TransitionSchema),
  omitted: number().int().nonnegative(),
  report: object({
    stored: boolean().describe("false: what this digest only counts is sent again next run"),
    command: string(),
    url: Link.optional(),
  }),
  store: object({
    region: string().optional(),
    table: string().optional().describe("the audit table (AUDIT_TABLE)"),
    statusTable: string().optional().describe("the Application status table (STATUS_TABLE)"),
    stateDir: string().optional().describe("the embedded store's directory (--state-dir)"),
  })
    .optional()
    .describe("where the commands this digest suggests act: the run's own store (added in place)"),
  repeats: string()
    .optional()
    .describe("a run interrupted after publishing: some of this may repeat its message"),
  incident: object({
    key: string().describe("incidentKey: stable for the incident's whole episode, never reused"),
    status: oneOf(["firing", "resolved"]).describe(
      "resolved: its last member resolved in this run (on the Critical topic: it stopped being critical; `firing` says whether it ended)",
    ),
    startsAt: Time.describe("when the incident began: its earliest member's onset"),
    values: record(string(), string())
      .optional()
      .describe("the groupBy labels and values it opened with: what its titles lead with (added in place)"),
    firing: number()
      .int()
      .nonnegative()
      .optional()
      .describe(
        "its members still firing after the run: 0 when it ended; a pager's resolved with members firing is no end (added in place)",
      ),
    lastedSeconds: number()
      .int()
      .nonnegative()
      .optional()
      .describe("it ended in this run: how long it lasted, from startsAt to the run (added in place)"),
    thread: string()
      .optional()
      .describe(
        "the key whose chat thread it is posted in when not its own: an earlier episode's, as it opened flapping (added in place)",
      ),
    flapping: number()
      .int()
      .positive()
      .optional()
      .describe(
        "it opened flapping: the episodes with its values that opened and ended in the window, it included (added in place)",
      ),
  })
    .optional()
    .describe("an incident message: the one incident it tells (added in place)"),
  leftOut: object({
    count: number().int().nonnegative(),
    first: array(object({ key: string(), reason: string() })),
  })
    .optional()
    .describe("flagged findings this run could not keep (told once; counted in every run summary)"),
});

export type DigestV1 = output<typeof DigestV1Schema>;
export type DigestV1Transition = output<typeof DigestV1TransitionSchema>;
