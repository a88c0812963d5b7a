import type { DigestMessage } from "@fleet-auditor/audit";
import { createHttpAgent } from "@fleet-auditor/http/agent";
import { SlackBot, SlackResponder } from "@fleet-auditor/notify";
import { answerSlackClick, deliverToSlack, type SlackClickDeps } from "@fleet-auditor/use-cases";
import { beforeEach, describe, expect, it } from "vitest";
import { useFakeSlackApi } from "../../helpers/fake-slack-api.ts";
import { failing, Landscape } from "../../helpers/incident-landscape.ts";
import {
  blockActions,
  CHANNEL,
  type ClickSpec,
  formBody,
  functionUrlEvent,
  SIGNING_SECRET,
  type SignedRequest,
  signedClick,
  TEAM,
} from "../../helpers/slack-clicks.ts";
import { forLambda } from "../../helpers/sns-event.ts";

// A click on an incident message's button, from the bot's post to the answer in Slack: signed as
// Slack signs it, delivered as a function URL delivers it, acted on by a stand-in of the incident
// actions core that records each call and applies each action once, and answered through the
// click's response_url on a stand-in of Slack that updates the message clicked on.

const fake = useFakeSlackApi();
const dispatcher = createHttpAgent();

type Call = Parameters<SlackClickDeps["act"]>[0];
let calls: Call[];
let applied: Set<string>;
let logs: string[];

/** The core's stand-in: records each call; applies an action once per key and kind; knows only `known` keys. */
function core(known: readonly string[]): SlackClickDeps["act"] {
  return async (action) => {
    calls.push(action);
    // The core's work takes a moment: two clicks at once overlap here.
    await new Promise((r) => setTimeout(r, 20));
    if (!known.includes(action.key)) return { outcome: "unknown" };
    const id = `${action.kind}:${action.key}`;
    if (applied.has(id)) return { outcome: "already" };
    applied.add(id);
    return action.kind === "silence" ? { outcome: "applied", silenceId: "sil-0001" } : { outcome: "applied" };
  };
}

function deps(known: readonly string[]): SlackClickDeps {
  const responder = new SlackResponder({ dispatcher });
  return {
    signingSecret: async () => SIGNING_SECRET,
    rules: { teamId: TEAM, channelId: CHANNEL, responseUrlPrefix: new URL(fake.api.apiUrl).origin },
    act: core(known),
    respond: (url, response, deadline) => responder.respond(url, response, deadline),
    log: { info: () => undefined, warn: (m, ...extra) => void logs.push(`${m} ${JSON.stringify(extra)}`) },
  };
}

beforeEach(() => {
  fake.api.reset();
  calls = [];
  applied = new Set();
  logs = [];
});

/** The bot posts an incident's first message with its buttons: its key and the message as Slack keeps it. */
async function posted(id: string, region: string): Promise<{ key: string; ts: string }> {
  const [m]: Array<DigestMessage | undefined> = new Landscape().run([failing(id, region)], 0);
  const poster = new SlackBot({
    token: fake.api.token,
    channel: fake.api.channel,
    apiUrl: fake.api.apiUrl,
    dispatcher,
    minIntervalMs: 0,
  });
  const text = forLambda(m?.message ?? "{}");
  await deliverToSlack({ poster, incidentActions: true }, [{ id: "sns-1", text }], Date.now() + 10_000);
  const message = fake.api.messages.at(-1);
  return { key: (JSON.parse(text) as { incident: { key: string } }).incident.key, ts: message?.ts ?? "" };
}

/** A click on the posted message `ts`, as Slack sends it: the message's blocks, a response_url. */
function clickOn(ts: string, spec: Partial<ClickSpec> = {}): Record<string, unknown> {
  const message = fake.api.messages.find((m) => m.ts === ts);
  return blockActions({
    responseUrl: fake.api.responseUrl(ts),
    message: { ts, text: message?.text ?? "", blocks: message?.blocks ?? [] },
    ...spec,
  });
}

const send = (d: SlackClickDeps, request: SignedRequest, base64 = false) =>
  answerSlackClick(d, functionUrlEvent(request, { base64 }), Date.now(), Date.now() + 2_500);

const buttonsOf = (ts: string) =>
  (fake.api.messages.find((m) => m.ts === ts)?.blocks ?? []).filter(
    (b) => (b as { block_id?: string }).block_id === "fleet-auditor.incident",
  );

describe("a Slack click on an incident's button", () => {
  it("acknowledges the incident by the user who clicked, and the message shows who did it in place of its buttons", async () => {
    const { key, ts } = await posted("a", "eu-1");
    const d = deps([key]);
    expect(buttonsOf(ts)).toHaveLength(1);
    const blocksBefore = fake.api.messages.find((m) => m.ts === ts)?.blocks ?? [];
    const answer = await send(d, signedClick(clickOn(ts, { value: key })), true);
    expect(answer).toMatchObject({ statusCode: 200, outcome: "applied" });
    expect(calls).toEqual([{ kind: "acknowledge", key, by: "slack:U0ALICE (alice)" }]);
    const message = fake.api.messages.find((m) => m.ts === ts);
    expect(buttonsOf(ts)).toEqual([]);
    expect(JSON.stringify(message?.blocks)).toMatch(
      /:white_check_mark: Acknowledged by <@U0ALICE> at \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );
    // The rest of the message is as it was.
    expect(message?.blocks.slice(0, -1)).toEqual(blocksBefore.slice(0, -1));
    expect(message?.blocks).toHaveLength(blocksBefore.length);
    expect(fake.api.responses.map((r) => r.status)).toEqual([200]);
  });

  it("silences the incident for the button's hours, and says so with the silence's ID", async () => {
    const { key, ts } = await posted("b", "eu-2");
    const answer = await send(
      deps([key]),
      signedClick(clickOn(ts, { value: key, actionId: "fleet-auditor.silence.24h" })),
    );
    expect(answer.outcome).toBe("applied");
    expect(calls).toEqual([{ kind: "silence", key, by: "slack:U0ALICE (alice)", forMs: 24 * 3_600_000 }]);
    expect(JSON.stringify(fake.api.messages[0]?.blocks)).toContain(":mute: Silenced for 24h by <@U0ALICE>");
    expect(JSON.stringify(fake.api.messages[0]?.blocks)).toContain("silence `sil-0001`");
  });

  it("tells only the user who clicked when no open incident has the key, and changes no message", async () => {
    const { key, ts } = await posted("c", "eu-3");
    const before = JSON.stringify(fake.api.messages);
    const answer = await send(deps([]), signedClick(clickOn(ts, { value: key })));
    expect(answer).toMatchObject({ statusCode: 200, outcome: "unknown-incident" });
    expect(calls).toHaveLength(1);
    expect(fake.api.responses.map((r) => r.body)).toEqual([
      expect.objectContaining({ response_type: "ephemeral", replace_original: false }),
    ]);
    expect(String(fake.api.responses[0]?.body.text)).toContain(`No open incident has the key \`${key}\``);
    expect(JSON.stringify(fake.api.messages)).toBe(before);
  });

  it("passes two identical clicks at once both to the core, which applies one; each gets its answer", async () => {
    const { key, ts } = await posted("d", "eu-4");
    const payload = clickOn(ts, { value: key });
    const d = deps([key]);
    const answers = await Promise.all([send(d, signedClick(payload)), send(d, signedClick(payload))]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.outcome).sort()).toEqual(["already", "applied"]);
    expect(calls).toHaveLength(2);
    expect(JSON.stringify(fake.api.messages[0]?.blocks)).toContain("Acknowledged by <@U0ALICE>");
  });

  it("refuses each hostile request with its status, never calling the core nor answering in Slack", async () => {
    const { key, ts } = await posted("e", "eu-5");
    const d = deps([key]);
    const good = clickOn(ts, { value: key });
    const now = Math.floor(Date.now() / 1000);
    const signed = signedClick(good);
    const hostile: Array<[string, SignedRequest, number, string]> = [
      [
        "a forged signature",
        { ...signed, headers: { ...signed.headers, "X-Slack-Signature": `v0=${"1".repeat(64)}` } },
        401,
        "bad-signature",
      ],
      ["another app's secret", signedClick(good, { secret: "not-our-secret" }), 401, "bad-signature"],
      ["a replay ten minutes later", signedClick(good, { at: now - 600 }), 401, "stale"],
      ["a timestamp ten minutes ahead", signedClick(good, { at: now + 600 }), 401, "stale"],
      [
        "a signature over another body",
        { ...signed, body: formBody(clickOn(ts, { value: "inc-BBBBBBBBBBBBBBBBBBBBBBBB" })) },
        401,
        "bad-signature",
      ],
      [
        "no signature",
        { ...signed, headers: { "Content-Type": "application/x-www-form-urlencoded" } },
        401,
        "unsigned",
      ],
      ["a huge body", signedClick(good, { body: `payload=${"%7B".repeat(100_000)}` }), 413, "too-large"],
      ["JSON that is no payload", signedClick(good, { body: "payload=%7Bnot-json" }), 400, "malformed"],
      ["two actions", signedClick(clickOn(ts, { value: key, moreActions: 1 })), 400, "malformed"],
      ["another workspace", signedClick(clickOn(ts, { value: key, team: "T0OTHERTEAM" })), 403, "forbidden"],
      ["another channel", signedClick(clickOn(ts, { value: key, channel: "C0OTHERCHAN" })), 403, "forbidden"],
    ];
    for (const [what, request, status, outcome] of hostile) {
      const answer = await send(d, request);
      expect({ status: answer.statusCode, outcome: answer.outcome }, what).toEqual({ status, outcome });
      // The answer's body names the reason, never a value from the request.
      expect(answer.body, what).toBe(outcome);
    }
    expect(calls).toEqual([]);
    expect(fake.api.responses).toEqual([]);
    expect(buttonsOf(ts)).toHaveLength(1);
  });

  it("keeps the action when its answer cannot reach Slack, and logs that without the response URL", async () => {
    const { key, ts } = await posted("f", "eu-6");
    const lost = `${new URL(fake.api.apiUrl).origin}/actions/T0FLEETTEAM/0/expired`;
    const answer = await send(deps([key]), signedClick(clickOn(ts, { value: key, responseUrl: lost })));
    expect(answer).toMatchObject({ statusCode: 200, outcome: "applied" });
    expect(calls).toHaveLength(1);
    expect(logs.join("\n")).toContain("the answer to the click did not reach Slack; the action stands");
    expect(logs.join("\n")).not.toContain("expired");
  });
});
