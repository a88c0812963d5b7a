import { ActionV1Schema, type DigestV1 } from "@fleet-auditor/render";
import { DynamoIncidentHistory, DynamoSilenceStore } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { everythingStored } from "../helpers/everything-stored.ts";
import {
  PAGERDUTY_WEBHOOK_SECRET,
  type PagerDutyDelivery,
  pagerDutyDelivery,
  signatureHeader,
} from "../helpers/fake-pagerduty.ts";
import { functionUrlEvent as deliveryEvent } from "../helpers/function-url-event.ts";
import { type Told, type UrlAnswer, useLandscapeFunctions } from "../helpers/landscape-functions.ts";
import {
  blockActions,
  type ClickSpec,
  type SignedRequest,
  signedClick,
  functionUrlEvent as slackEvent,
} from "../helpers/slack-clicks.ts";

// Acting where the message lands, end to end on loopback: the audit function fires incidents, the
// Slack function posts them with their buttons (the Slack API stand-in keeps what it posted), and
// someone clicks one: the click reaches the Slack actions function as Slack sends it (a form signed
// with the app's signing secret, in a function URL event), the message clicked on is updated
// through its `response_url`, the action is told in the incident's thread and the pager acknowledges
// the page. A PagerDuty webhook delivery (signed as PagerDuty signs it) acknowledges another here.
// Each runtime is an incident of its own in chat and on the pager (a route per instance), so each
// is on a page of its own: an acknowledgement in PagerDuty names one incident here. Then every
// hostile request is sent to both function URLs: refused, the audit table as it was, nothing told.

const ROUTES = JSON.stringify([
  { name: "default", receiver: "incidents", continue: true },
  {
    name: "pager",
    receiver: "critical",
    matchers: ["severity=critical"],
    groupBy: ["instance"],
    continue: true,
    maxNew: 10,
  },
]);
const TABLE = "acts";
const { kit, dynamo, sns, pd, slack, HOUR, runAt, deliver, slackActions, pagerDutyWebhook } =
  useLandscapeFunctions(TABLE, { size: 30, seed: 11, flagged: 0 }, { GROUP_BY_FAILING: "instance", ROUTES });

const ALICE = { id: "U0ALICE", username: "alice", name: "alice" };
const BOB = { id: "U0BOB", username: "bob", name: "bob" };

/** One runtime's incident: its chat message, its page, and the bot's post of it. */
interface Incident {
  key: string;
  threadId: string;
  page: string;
  post: {
    ts: string;
    text: string;
    blocks: Array<{ type: string; block_id?: string; elements?: unknown[] }>;
  };
}

function incidentOf(told: Told, instanceID: string): Incident {
  const about = (d: DigestV1) => d.transitions.some((t) => t.instanceID === instanceID);
  const chat = told.chat.find((m) => about(m.doc));
  const page = told.paged.find(about);
  const key = chat?.doc.incident?.key as string;
  const post = slack.api.topLevel().find((m) => JSON.stringify(m.blocks).includes(`"value":"${key}"`));
  expect(post, `the bot's post of ${instanceID}'s incident`).toBeDefined();
  return {
    key,
    threadId: chat?.threadId as string,
    page: page?.incident?.key as string,
    // As posted: the stand-in replaces its copy when a click's answer updates it.
    post: structuredClone(post) as Incident["post"],
  };
}

/** A button of the bot's post, as Slack shows it: `fleet-auditor.ack`, `fleet-auditor.silence.4h`. */
function button(incident: Incident, actionId: string): { action_id: string; value: string } {
  const actions = incident.post.blocks.find((b) => b.type === "actions");
  const found = (actions?.elements as Array<{ action_id: string; value: string }> | undefined)?.find(
    (e) => e.action_id === actionId,
  );
  expect(found, `${actionId} on ${incident.key}`).toBeDefined();
  return found as { action_id: string; value: string };
}

/** The click on a button of an incident's post, as Slack sends it, by `user`. */
function clickOn(incident: Incident, actionId: string, user = ALICE, spec: Partial<ClickSpec> = {}) {
  const b = button(incident, actionId);
  return blockActions({
    actionId: b.action_id,
    value: b.value,
    user,
    responseUrl: slack.api.responseUrl(incident.post.ts),
    message: { ts: incident.post.ts, text: incident.post.text, blocks: incident.post.blocks },
    ...spec,
  });
}

const click = (request: SignedRequest): Promise<UrlAnswer> => slackActions(slackEvent(request));
const webhook = (delivery: PagerDutyDelivery): Promise<UrlAnswer> =>
  pagerDutyWebhook(deliveryEvent(delivery));
const alertOf = (page: string) => pd.pagerduty.alerts.find((a) => a.dedupKey === page);
const history = () => new DynamoIncidentHistory({ client: dynamo.db.client, tableName: TABLE });
const acknowledgedBy = async (key: string) =>
  (await history().findIncident(["failing"], key))?.record.acknowledged;

let incidents: { a: Incident; b: Incident; c: Incident; d: Incident };
/** Alice's click on a's Acknowledge and PagerDuty's delivery of c's acknowledgement, as sent. */
let sent: { click: SignedRequest; delivery: PagerDutyDelivery };

describe("acting on an incident where its message lands", () => {
  it("acknowledges from a signed click and from a signed PagerDuty webhook, silences from a button, and holds back what each stops", async () => {
    const ids = kit.sim.fleet.create(4).map((r) => r.instanceID) as [string, string, string, string];
    for (const id of ids) kit.sim.fleet.fail(id, "provision");

    // Hour 0: four incidents, each with a thread and a page of its own; the bot's posts carry buttons.
    const opened = await runAt(0);
    expect([opened.chat.length, opened.paged.length]).toEqual([4, 4]);
    const [a, b, c, d] = ids.map((id) => incidentOf(opened, id)) as [Incident, Incident, Incident, Incident];
    incidents = { a, b, c, d };
    expect(new Set([a, b, c, d].map((i) => i.page)).size).toBe(4);
    for (const i of [a, b, c, d]) expect(alertOf(i.page)?.status).toBe("triggered");

    // Alice acknowledges a from its button, signed as Slack signs it.
    const aliceClick = signedClick(clickOn(a, "fleet-auditor.ack"));
    const topLevel = slack.api.topLevel().length;
    const acked = await click(aliceClick);
    expect([acked.statusCode, acked.body]).toEqual([200, ""]);
    // The message clicked on says who did it, in place of its buttons.
    const updated = slack.api.messages.find((m) => m.ts === a.post.ts);
    const shown = JSON.stringify(updated?.blocks);
    expect(shown).toContain("Acknowledged by <@U0ALICE>");
    expect(shown).not.toContain("fleet-auditor.ack");
    expect(await acknowledgedBy(a.key)).toMatchObject({ by: "slack:U0ALICE (alice)" });
    // Told in a's thread (by the bot, and for Chatbot under a's thread), and the pager acknowledges
    // a's page, which the acknowledgement was mirrored to.
    const told = await deliver();
    expect(told.chat.map((m) => [ActionV1Schema.parse(m.json).action, m.threadId])).toEqual([
      ["acknowledge", a.threadId],
    ]);
    expect(slack.api.replies(a.post.ts).map((r) => r.text)).toEqual([
      expect.stringMatching(/acknowledged by slack:U0ALICE \(alice\)/),
    ]);
    expect(told.paged.map((m) => ActionV1Schema.parse(m.json).pages)).toEqual([[a.page]]);
    expect(alertOf(a.page)?.status).toBe("acknowledged");
    expect(await acknowledgedBy(a.page)).toMatchObject({ by: "slack:U0ALICE (alice)" });
    for (const i of [b, c, d]) expect(alertOf(i.page)?.status).toBe("triggered");

    // Bob silences b for 4 hours from its button: the silence is in the store, told in b's thread.
    const silenced = await click(signedClick(clickOn(b, "fleet-auditor.silence.4h", BOB)));
    expect(silenced.statusCode).toBe(200);
    expect(JSON.stringify(slack.api.messages.find((m) => m.ts === b.post.ts)?.blocks)).toContain(
      "Silenced for 4h by <@U0BOB>",
    );
    const silences = await new DynamoSilenceStore({ client: dynamo.db.client, tableName: TABLE }).list();
    expect(silences).toEqual([
      expect.objectContaining({
        audit: "failing",
        match: [{ name: "incident_default", op: "=", value: b.key }],
        createdBy: "slack:U0BOB (bob)",
        endsAt: new Date(Date.now() + 4 * HOUR).toISOString(),
      }),
    ]);
    const toldSilence = await deliver();
    expect(toldSilence.chat.map((m) => [ActionV1Schema.parse(m.json).action, m.threadId])).toEqual([
      ["silence", b.threadId],
    ]);
    expect(toldSilence.paged).toEqual([]);

    // PagerDuty says c's page was acknowledged there: c is acknowledged here, told in its thread.
    const carol = pagerDutyDelivery({
      incidentKey: c.page,
      agent: { id: "PCAROL1", summary: "Carol Oncall" },
    });
    sent = { click: aliceClick, delivery: carol };
    const fromPager = await webhook(carol);
    expect([fromPager.statusCode, JSON.parse(fromPager.body)]).toEqual([200, { outcome: "applied" }]);
    expect(await acknowledgedBy(c.key)).toMatchObject({ by: "pagerduty:PCAROL1 (Carol Oncall)" });
    const toldPager = await deliver();
    expect(toldPager.chat.map((m) => [ActionV1Schema.parse(m.json).action, m.threadId])).toEqual([
      ["acknowledge", c.threadId],
    ]);
    expect(slack.api.replies(c.post.ts).map((r) => JSON.stringify(r.blocks))).toEqual([
      expect.stringContaining(`Incident \`${c.key}\` acknowledged by pagerduty:PCAROL1 (Carol Oncall).`),
    ]);
    // The pager's acknowledge of c's page (PagerDuty has it so already: it changes nothing there).
    expect(toldPager.paged.map((m) => ActionV1Schema.parse(m.json).pages)).toEqual([[c.page]]);
    expect(alertOf(c.page)?.status).toBe("acknowledged");
    // Every action was told in a thread: none is a post of its own in the channel.
    expect(slack.api.topLevel()).toHaveLength(topLevel);

    // Hour 1: b fails again for another reason: a change, held back by its silence.
    kit.sim.fleet.fail(ids[1], "provision");
    const held = await runAt(1);
    expect(held.summary.notified.suppressed).toBeGreaterThan(0);
    expect(held.chat).toEqual([]);
    expect(held.paged).toEqual([]);

    // Hour 26: a day on, reminders are due: none for a and c (acknowledged); b (its silence over)
    // and d are reminded; no page is sent again.
    const day = await runAt(26);
    expect(day.chat.map((m) => [m.doc.incident?.key, m.doc.transitions.map((t) => t.kind)]).sort()).toEqual(
      [
        [b.key, ["reminder"]],
        [d.key, ["reminder"]],
      ].sort(),
    );
    expect(day.summary.notified.acknowledged).toBe(2);
    expect(day.paged).toEqual([]);
    expect(alertOf(a.page)?.status).toBe("acknowledged");
  }, 60_000);
});

describe("every hostile request to the Slack actions and PagerDuty webhook URLs", () => {
  it("is refused, or applied once, with the audit table as it was and nothing told", async () => {
    const { b, d } = incidents;
    const now = Math.floor(Date.now() / 1000);
    // The requests they forge or replay: Bob's click on d's Acknowledge, PagerDuty's acknowledgement of b's page.
    const dClick = clickOn(d, "fleet-auditor.ack", BOB);
    const good = signedClick(dClick);
    const other = signedClick(clickOn(b, "fleet-auditor.silence.24h", BOB));
    const bAck = pagerDutyDelivery({ incidentKey: b.page });
    const otherDelivery = pagerDutyDelivery({ incidentKey: d.page });
    const signedBody = (body: string): PagerDutyDelivery => ({
      headers: {
        ...bAck.headers,
        "X-PagerDuty-Signature": signatureHeader(body, [PAGERDUTY_WEBHOOK_SECRET]),
      },
      body,
    });
    const slackHostile: Array<[string, SignedRequest, number]> = [
      [
        "a forged signature",
        { ...good, headers: { ...good.headers, "X-Slack-Signature": `v0=${"f".repeat(64)}` } },
        401,
      ],
      [
        "a signature with another secret",
        signedClick(dClick, { secret: "not-the-apps-signing-secret" }),
        401,
      ],
      ["a replay of a real click a day old", sent.click, 401],
      ["a click dated ten minutes back", signedClick(dClick, { at: now - 600 }), 401],
      [
        "a real click's body under another request's signature",
        { headers: good.headers, body: sent.click.body },
        401,
      ],
      ["a signature over another body", { headers: good.headers, body: other.body }, 401],
      ["a huge body", signedClick(dClick, { body: `payload=${"A".repeat(300 * 1024)}` }), 413],
      ["a payload that is no JSON", signedClick(dClick, { body: "payload=%7B%22type%22" }), 400],
      ["a form without a payload", signedClick(dClick, { body: "type=block_actions" }), 400],
      [
        "two actions in one click",
        signedClick(clickOn(d, "fleet-auditor.ack", BOB, { moreActions: 1 })),
        400,
      ],
      [
        "a button that is none of ours",
        signedClick({ ...dClick, actions: [{ action_id: "x", value: d.key }] }),
        400,
      ],
      [
        "another workspace's click",
        signedClick(clickOn(d, "fleet-auditor.ack", BOB, { team: "T0OTHERTEAM" })),
        403,
      ],
      [
        "another channel's click",
        signedClick(clickOn(d, "fleet-auditor.ack", BOB, { channel: "C0OTHERTEAM" })),
        403,
      ],
      [
        "an answer sent elsewhere",
        signedClick({ ...dClick, response_url: "https://hooks.example.com/actions/T0/1/x" }),
        400,
      ],
      [
        "a key no open incident has",
        signedClick(clickOn(d, "fleet-auditor.ack", BOB, { value: "inc-ZZZZZZZZZZZZZZZZZZZZZZZZ" })),
        200,
      ],
    ];
    const { "X-PagerDuty-Signature": _, ...unsigned } = bAck.headers;
    const pagerHostile: Array<[string, PagerDutyDelivery, number]> = [
      ["an unsigned delivery", { ...bAck, headers: unsigned }, 401],
      [
        "a forged signature",
        { ...bAck, headers: { ...bAck.headers, "X-PagerDuty-Signature": `v1=${"f".repeat(64)}` } },
        401,
      ],
      [
        "a signature with another secret",
        pagerDutyDelivery({ incidentKey: b.page, secrets: ["forger"] }),
        401,
      ],
      ["a signature over another body", { headers: bAck.headers, body: otherDelivery.body }, 401],
      ["a body under another delivery's signature", { headers: otherDelivery.headers, body: bAck.body }, 401],
      ["a replay of a real delivery a day old", sent.delivery, 400],
      ["a huge body", signedBody(`${bAck.body}${" ".repeat(70_000)}`), 413],
      ["a body that is no JSON", signedBody('{"event":'), 400],
      ["an event without its fields", signedBody('{"event":{}}'), 400],
      ["another service's incident", pagerDutyDelivery({ incidentKey: b.page, serviceId: "POTHER1" }), 403],
      ["a key no open incident has", pagerDutyDelivery({ incidentKey: "inc-ZZZZZZZZZZZZZZZZZZZZZZZZ" }), 200],
    ];
    const before = await everythingStored(dynamo.db.client, [TABLE]);
    const published = sns.standIn.accepted.length;
    for (const [what, request, status] of slackHostile)
      expect((await click(request)).statusCode, `Slack: ${what}`).toBe(status);
    expect((await slackActions(slackEvent(good, { method: "GET" }))).statusCode).toBe(405);
    for (const [what, delivery, status] of pagerHostile)
      expect((await webhook(delivery)).statusCode, `PagerDuty: ${what}`).toBe(status);
    expect((await pagerDutyWebhook(deliveryEvent({ ...bAck, method: "GET" }))).statusCode).toBe(405);
    expect(await everythingStored(dynamo.db.client, [TABLE])).toBe(before);
    expect(sns.standIn.accepted).toHaveLength(published);
    // No message was changed: the one answer sent is a word to whoever clicked on a gone incident.
    expect(slack.api.responses.slice(-1).map((r) => r.body.response_type)).toEqual(["ephemeral"]);

    // Two clicks on d's Acknowledge at once (a double click, two people), and one PagerDuty
    // delivery twice at once (a retry racing the first): each applied once, told once.
    const clicks = await Promise.all([good, signedClick(clickOn(d, "fleet-auditor.ack", ALICE))].map(click));
    expect(clicks.map((a) => a.statusCode)).toEqual([200, 200]);
    const deliveries = await Promise.all([webhook(bAck), webhook(bAck)]);
    expect(deliveries.map((a) => JSON.parse(a.body).outcome).sort()).toEqual(["already", "applied"]);
    for (const key of [d.key, d.page, b.key, b.page]) {
      const shown = await history().incidentTimeline(["failing"], key);
      expect(
        shown?.events.filter((e) => e.what.includes("acknowledged")),
        key,
      ).toHaveLength(1);
    }
    const told = await deliver();
    expect(told.chat.map((m) => m.threadId).sort()).toEqual([b.threadId, d.threadId].sort());
    expect(told.paged.map((m) => ActionV1Schema.parse(m.json).pages).sort()).toEqual(
      [[b.page], [d.page]].sort(),
    );
    // The pager sent PagerDuty one acknowledge for each page (the stand-in forgot the alerts
    // between the tests: what it was sent is what counts).
    const events = pd.pagerduty.attempts.map((a) => a.event as { event_action: string; dedup_key: string });
    expect(events.map((e) => `${e.event_action} ${e.dedup_key}`).sort()).toEqual(
      [`acknowledge ${b.page}`, `acknowledge ${d.page}`].sort(),
    );
  }, 30_000);
});
