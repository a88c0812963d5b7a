import { ActionV1Schema, type DigestV1 } from "@fleet-auditor/render";
import { DynamoIncidentHistory, DynamoSilenceStore } from "@fleet-auditor/store";
import { describe, expect, it } from "vitest";
import { everythingStored } from "../helpers/everything-stored.ts";
import { type PagerDutyDelivery, pagerDutyDelivery, signatureHeader } from "../helpers/fake-pagerduty.ts";
import { functionUrlEvent as deliveryEvent } from "../helpers/function-url-event.ts";
import { type Told, type UrlAnswer, useLandscapeFunctions } from "../helpers/landscape-functions.ts";
import {
  blockActions,
  type ClickSpec,
  formBody,
  SIGNING_SECRET,
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
    post: post as Incident["post"],
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
    const acked = await click(signedClick(clickOn(a, "fleet-auditor.ack")));
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
    const fromPager = await webhook(
      pagerDutyDelivery({ incidentKey: c.page, agent: { id: "PCAROL1", summary: "Carol Oncall" } }),
    );
    expect([fromPager.statusCode, JSON.parse(fromPager.body)]).toEqual([200, { outcome: "applied" }]);
    expect(await acknowledgedBy(c.key)).toMatchObject({ by: "pagerduty:PCAROL1 (Carol Oncall)" });
    const toldPager = await deliver();
    expect(toldPager.chat.map((m) => [ActionV1Schema.parse(m.json).action, m.threadId])).toEqual([
      ["acknowledge", c.threadId],
    ]);
    expect(slack.api.replies(c.post.ts)).toHaveLength(1);

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
    expect(day.summary.notified.acknowledged).toBeGreaterThanOrEqual(2);
    expect(day.paged).toEqual([]);
    expect(alertOf(a.page)?.status).toBe("acknowledged");
  }, 60_000);
});
