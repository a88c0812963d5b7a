import { Fleet, generateFleet, type SimInstance } from "@fleet-auditor/keb-kubeedge-sim";
import { SnsAlertPublisher } from "@fleet-auditor/notify";
import { type DigestV1, DigestV1Schema, slackMessage } from "@fleet-auditor/render";
import {
  auditTableDefinition,
  DynamoAuditStore,
  DynamoReportStore,
  DynamoStatusStore,
  ensureTable,
  statusTableDefinition,
} from "@fleet-auditor/store";
import { type AuditRunDeps, ingestBatch, runAudit } from "@fleet-auditor/use-cases";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useDynamo } from "../../helpers/dynamo.ts";
import { FleetSource } from "../../helpers/memory-ports.ts";
import { withDeps } from "../../helpers/run-deps.ts";
import { type Delivered, useSns } from "../../helpers/sns.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// Nothing KEB or the edge puts in the fields it sends can jam an audit (a property). Whatever the
// content (any size, line breaks, control characters, shell syntax, Unicode, values that collide
// once cut), every run completes or ends incomplete without throwing, and:
// - every other change of that audit is still told in that run;
// - a following run with nothing changed publishes nothing and writes no snapshot;
// - field contents alone never make the audit degraded;
// - every item written fits DynamoDB's 400 KB (the store refuses it otherwise: dynalite here, AWS's
//   DynamoDB Local in the dynamodb-local project);
// - no rendered line of any channel (e-mail, Chatbot, Slack) starts with text from outside.
// Small in `npm test`; `npm run test:soak` runs many more cases.

// Four in `npm test` (it runs on both DynamoDB servers), a short form kept under its 4-minute bar.
const CASES = process.env.FLEET_AUDITOR_SOAK ? 150 : 4;
const env = useDynamo([]);
const sns = useSns();

/** Outside text put after a line break: if it ever starts a rendered line, a line was forged. */
const FORGED = "FORGEDLINE";
const BREAKS = ["\n", "\r", "\r\n", "\u2028", "\u2029", "\u000b", "\f", "\u0085", "\u001b[2K\r", "\u0000"];
const NASTY = [
  "$(touch /tmp/pwned)",
  "`id`",
  "'; rm -rf ~ #",
  '"; echo x',
  "<!channel>",
  "<https://evil.example|click here>",
  "*bold* _it_ ~gone~",
  "|",
  "\\",
  "%0a%0d",
  "constructor",
  "__proto__",
  "‮reversed",
  "😀界\u0301",
];

/** One hostile value: a benign start, then a line break and text that must never start a line. */
const hostile: fc.Arbitrary<string> = fc
  .record({
    lead: fc.string({ minLength: 0, maxLength: 8 }),
    brk: fc.constantFrom(...BREAKS),
    nasty: fc.constantFrom(...NASTY),
    noise: fc.string({ unit: "binary", maxLength: 12 }),
    // Past every cut (200, 253, 300, 600, 2,000 characters), and far past.
    pad: fc.constantFrom(0, 0, 0, 199, 260, 301, 1_100, 2_100, 60_000, 210_000),
    tail: fc.string({ maxLength: 6 }),
  })
  .map(
    ({ lead, brk, nasty, noise, pad, tail }) =>
      `v${lead}${"p".repeat(pad)}${brk}${FORGED} ${nasty}${noise}${tail}`,
  );

/** Every lines of every channel a delivered message carries. */
function renderedLines(delivered: Delivered[]): string[] {
  const lines: string[] = [];
  for (const d of delivered) {
    expect(d.Subject).not.toMatch(/[\r\n]/);
    const body = JSON.parse(d.Message) as { default: string; email: string; https: string };
    lines.push(...body.email.split(/\r\n|\r|\n/));
    const chatbot = JSON.parse(body.https) as { content: Record<string, unknown> };
    for (const text of stringsIn(chatbot.content)) lines.push(...text.split(/\r\n|\r|\n/));
    const digest = DigestV1Schema.parse(JSON.parse(body.default)) as DigestV1;
    for (const text of stringsIn(slackMessage(digest))) lines.push(...text.split(/\r\n|\r|\n/));
  }
  return lines;
}

function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return [];
}

/** A line starts with outside text when, past its indentation and markup, it starts with FORGED. */
const forged = (line: string): boolean => /^[\s>*_~`•·\-–|]*FORGEDLINE/u.test(line);

let caseNo = 0;
async function freshDeps(): Promise<{
  base: AuditRunDeps;
  drain: () => Promise<Delivered[]>;
  status: DynamoStatusStore;
}> {
  caseNo++;
  const [auditTable, statusTable] = [`audit-prop-${caseNo}`, `status-prop-${caseNo}`];
  // One client for the file: the suite's own, on dynalite or DynamoDB Local.
  const client = env.db.client;
  await ensureTable(client, auditTableDefinition(auditTable));
  await ensureTable(client, statusTableDefinition(statusTable));
  return {
    base: {
      ports: {
        audits: testAudits(),
        store: new DynamoAuditStore({ client, tableName: auditTable }),
        reports: new DynamoReportStore({ client, tableName: auditTable }),
        publisher: new SnsAlertPublisher({ client: sns.sns, topicArn: sns.topicArn }),
      },
      settings: { landscape: "prop" },
    },
    drain: await sns.subscriber(`prop-${caseNo}`),
    status: new DynamoStatusStore({ client, tableName: statusTable }),
  };
}

const T0 = Date.UTC(2026, 10, 1, 12, 0);
const at = (minutes: number): Date => new Date(T0 + minutes * 60_000);

/** Every text field of a runtime DTO, as the simulator renders it, and of its failing operation. */
const RUNTIME_FIELDS = [
  "instanceID",
  "runtimeID",
  "globalAccountID",
  "subscriptionGlobalAccountID",
  "subAccountID",
  "region",
  "subAccountRegion",
  "shootName",
  "servicePlanID",
  "servicePlanName",
  "provider",
  "userID",
] as const;
const OPERATION_FIELDS = ["id", "description"] as const;
const ERROR_FIELDS = ["message", "reason", "component", "step"] as const;

/** Each field of the runtime, of its operation and of the operation's error hostile or not, independently. */
const some = <K extends string>(keys: readonly K[]): fc.Arbitrary<Partial<Record<K, string>>> =>
  fc.record(Object.fromEntries(keys.map((k) => [k, hostile])) as Record<K, fc.Arbitrary<string>>, {
    requiredKeys: [],
  });
const runtimeFields: fc.Arbitrary<HostileRuntime> = fc.record({
  runtime: some(RUNTIME_FIELDS),
  operation: some(OPERATION_FIELDS),
  error: some(ERROR_FIELDS),
  steps: fc.array(hostile, { maxLength: 3 }),
});

type HostileRuntime = {
  runtime: Partial<Record<(typeof RUNTIME_FIELDS)[number], string>>;
  operation: Partial<Record<(typeof OPERATION_FIELDS)[number], string>>;
  error: Partial<Record<(typeof ERROR_FIELDS)[number], string>>;
  steps: string[];
};

/** Puts the generated values into a simulated runtime and its latest operation. */
function makeHostile(instance: SimInstance, fields: HostileRuntime): void {
  Object.assign(instance, fields.runtime);
  const op = instance.operations.at(-1);
  if (!op) return;
  Object.assign(op, fields.operation);
  op.error = { message: "m", reason: "r", component: "c", step: "s", ...fields.error };
  if (fields.steps.length) op.executedButNotCompletedSteps = fields.steps;
}

describe("nothing in a field can jam an audit (property)", () => {
  it(
    `holds for a KEB audit whatever KEB puts in any field of a runtime (${CASES} cases)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 10_000 }),
          fc.array(runtimeFields, { minLength: 1, maxLength: 3 }),
          async (seed, hostileRuntimes) => {
            const { base, drain } = await freshDeps();
            const fleet = new Fleet(generateFleet({ size: 150, seed, flagged: 30 }), { seed });
            const deps = withDeps(base, {
              ports: { audits: testAudits({ client: new FleetSource(fleet) }) },
            });
            const run = (minutes: number) =>
              runAudit(withDeps(deps, { hooks: { clock: () => at(minutes) } }), {
                audit: "failing",
                scheduledTime: at(minutes).toISOString(),
              });
            const first = await run(0);
            expect(first.complete).toBe(true);
            await drain();

            // The other changes: one healthy runtime fails, one failing runtime recovers.
            const flagged = new Set(first.transitions.map((t) => t.instanceID));
            const healthy = fleet.all().filter((i) => !flagged.has(i.instanceID) && !i.deletedAt && i.active);
            const [newlyFailing, ...spare] = healthy;
            const recovering = first.transitions[0]?.instanceID as string;
            fleet.fail(newlyFailing?.instanceID as string);
            fleet.recover(recovering);
            // The hostile ones: healthy runtimes that fail with every field as the generator says.
            for (const [i, fields] of hostileRuntimes.entries()) {
              const victim = spare[i] as SimInstance;
              fleet.fail(victim.instanceID);
              makeHostile(victim, fields);
            }

            const second = await run(60);
            expect(second.complete).toBe(true);
            expect(second.health?.badRuns).toBe(0);
            expect(second.notified.failed).toBe(0);
            const delivered = await drain();
            expect(delivered).toHaveLength(1);
            const told = DigestV1Schema.parse(
              JSON.parse((JSON.parse(delivered[0]?.Message as string) as { default: string }).default),
            );
            const toldKinds = new Map(told.transitions.map((t) => [t.instanceID, t.kind]));
            expect(toldKinds.get(newlyFailing?.instanceID as string)).toBe("firing");
            expect(toldKinds.get(recovering)).toBe("resolved");
            expect(renderedLines(delivered).filter(forged)).toEqual([]);

            const third = await run(61);
            expect(third.transitions).toEqual([]);
            expect(third.writes).toEqual({ snapshot: 0, deleted: 0 });
            expect(third.health?.badRuns).toBe(0);
            expect(await drain()).toEqual([]);
          },
        ),
        { numRuns: CASES, seed: 20261201 },
      );
    },
    60_000 + CASES * 15_000,
  );

  const applicationFields = fc.record({
    id: hostile,
    key: fc.oneof(hostile, fc.constant("/core/v1/services/null/null")),
    verb: fc.oneof(hostile, fc.constantFrom("list", "get", "watch")),
    node: fc.oneof(hostile, fc.constant("edge-9")),
    reason: hostile,
    message: hostile,
    appReason: hostile,
  });

  it(
    `holds for the applications audit whatever the edge puts in any field of an Application (${CASES} cases)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(applicationFields, { minLength: 1, maxLength: 3 }), async (apps) => {
          const { base, drain, status } = await freshDeps();
          let msgNo = 0;
          const message = (content: Record<string, unknown>, minute: number, node: string): string =>
            JSON.stringify({
              header: { msg_id: `m-${++msgNo}`, timestamp: at(minute).getTime() },
              route: { resource: `node/${node}/null` },
              content,
            });
          const bodies = [
            // The other change: a plain Application stuck on its own node.
            message(
              {
                ID: "clean-1",
                Key: "/core/v1/pods/default/null",
                Verb: "get",
                Nodename: "edge-clean",
                Status: "InApplying",
              },
              0,
              "edge-clean",
            ),
          ];
          for (const [n, a] of apps.entries()) {
            // Stuck, with every field hostile; and a burst of refusals from the same node.
            bodies.push(
              message(
                {
                  ID: `${a.id}#${n}`,
                  Key: a.key,
                  Verb: a.verb,
                  Nodename: a.node,
                  Status: "InApplying",
                  Reason: a.appReason,
                },
                0,
                a.node,
              ),
            );
            for (let i = 0; i < 5; i++)
              bodies.push(
                message(
                  {
                    ID: `${a.id}#${n}-r${i}`,
                    Key: a.key,
                    Verb: a.verb,
                    Nodename: a.node,
                    Status: "Rejected",
                    Reason: a.appReason,
                    Error: {
                      ErrStatus: {
                        kind: "Status",
                        status: "Failure",
                        reason: a.reason,
                        message: a.message,
                        code: 403,
                      },
                    },
                  },
                  20 + i,
                  a.node,
                ),
              );
          }
          // SQS carries at most 256 KiB a message: the edge cannot send a larger one.
          fc.pre(bodies.every((b) => Buffer.byteLength(b) <= 262_144));
          const { counts } = await ingestBatch(
            { store: status, clock: () => at(26) },
            bodies.map((body, i) => ({ messageId: `q-${i}`, body })),
          );
          expect(counts.failed).toBe(0);
          const run = (minutes: number) =>
            runAudit(
              withDeps(base, {
                ports: { audits: testAudits({ statusStore: status }) },
                hooks: { clock: () => at(minutes) },
              }),
              { audit: "applications", scheduledTime: at(minutes).toISOString() },
            );
          const first = await run(30);
          expect(first.complete).toBe(true);
          expect(first.health?.badRuns).toBe(0);
          expect(first.notified.failed).toBe(0);
          const delivered = await drain();
          expect(delivered).toHaveLength(1);
          const told = DigestV1Schema.parse(
            JSON.parse((JSON.parse(delivered[0]?.Message as string) as { default: string }).default),
          );
          expect(
            told.transitions.some((t) => t.instanceID.startsWith("app:") && t.region === "edge-clean"),
          ).toBe(true);
          expect(renderedLines(delivered).filter(forged)).toEqual([]);

          const again = await run(31);
          expect(again.transitions).toEqual([]);
          expect(again.writes).toEqual({ snapshot: 0, deleted: 0 });
          expect(again.health?.badRuns).toBe(0);
          expect(await drain()).toEqual([]);
        }),
        { numRuns: CASES, seed: 20261202 },
      );
    },
    60_000 + CASES * 15_000,
  );
});
