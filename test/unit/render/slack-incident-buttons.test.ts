import type { DigestMessage } from "@fleet-auditor/audit";
import {
  type DigestV1,
  DigestV1Schema,
  INCIDENT_BUTTONS_BLOCK,
  incidentButtonAction,
  renderDigests,
  slackMessage,
} from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { refusal } from "../../helpers/fake-slack.ts";
import { failing, Landscape } from "../../helpers/incident-landscape.ts";
import { ctx, t } from "../../helpers/transitions.ts";

// The bot's incident messages carry buttons (Acknowledge, Silence 4h, Silence 24h) that Slack
// sends to the stage's function with the incident's key as their value: only a firing incident's
// message, and only where a click is answered.

const digestOf = (m: DigestMessage | undefined): DigestV1 =>
  DigestV1Schema.parse(JSON.parse((JSON.parse(m?.message ?? "{}") as { default: string }).default));

const buttonsOf = (digest: DigestV1) =>
  slackMessage(digest, { incidentActions: true }).blocks.filter((b) => b.type === "actions" && b.block_id);

describe("the buttons of an incident message in Slack", () => {
  it("are the message's last block: Acknowledge, Silence 4h and Silence 24h, each naming the incident's key", () => {
    const [m] = new Landscape().run([failing("a", "eu-1")], 0);
    const digest = digestOf(m);
    const key = digest.incident?.key as string;
    const message = slackMessage(digest, { incidentActions: true });
    expect(message.blocks.at(-1)).toEqual({
      type: "actions",
      block_id: INCIDENT_BUTTONS_BLOCK,
      elements: [
        {
          type: "button",
          text: { type: "plain_text", text: "Acknowledge", emoji: true },
          action_id: "fleet-auditor.ack",
          value: key,
          style: "primary",
        },
        {
          type: "button",
          text: { type: "plain_text", text: "Silence 4h", emoji: true },
          action_id: "fleet-auditor.silence.4h",
          value: key,
        },
        {
          type: "button",
          text: { type: "plain_text", text: "Silence 24h", emoji: true },
          action_id: "fleet-auditor.silence.24h",
          value: key,
        },
      ],
    });
    // Slack takes it as Block Kit's reference says (unique IDs, a value within 2,000 characters).
    expect(refusal(message)).toBeUndefined();
    // Without them, the message is the same but for that one block.
    const plain = slackMessage(digest);
    expect(plain).toEqual({ ...message, blocks: message.blocks.slice(0, -1) });
  });

  it("ask for what their labels say, and no other action ID asks for anything", () => {
    expect(incidentButtonAction("fleet-auditor.ack")).toEqual({ kind: "acknowledge" });
    expect(incidentButtonAction("fleet-auditor.silence.4h")).toEqual({
      kind: "silence",
      forMs: 4 * 3_600_000,
    });
    expect(incidentButtonAction("fleet-auditor.silence.24h")).toEqual({
      kind: "silence",
      forMs: 24 * 3_600_000,
    });
    for (const other of ["report", "runbook:0:x", "fleet-auditor.silence.1h", "constructor", ""])
      expect(incidentButtonAction(other)).toBeUndefined();
  });

  it("are left off an incident's end, a run's digest, and a key the function would refuse", () => {
    const l = new Landscape();
    l.run([failing("b", "eu-2")], 0);
    const [ended] = l.run([], 1);
    expect(digestOf(ended).incident?.status).toBe("resolved");
    expect(buttonsOf(digestOf(ended))).toEqual([]);
    const run = digestOf(renderDigests({ ...ctx, forChannels: true }, [t(1)])[0]);
    expect(run.incident).toBeUndefined();
    expect(buttonsOf(run)).toEqual([]);
    const [m] = new Landscape().run([failing("c", "eu-3")], 0);
    const foreign = digestOf(m);
    for (const key of ["inc with spaces", "<!here>", "x".repeat(101)]) {
      if (foreign.incident) foreign.incident.key = key;
      expect(buttonsOf(foreign), key).toEqual([]);
    }
  });

  it("on a roll-up's message act on the roll-up's key", () => {
    const regions = ["eu-1", "eu-2", "eu-3", "us-1"];
    const messages = new Landscape().run(
      regions.map((r, i) => failing(`r${i}`, r)),
      0,
      1,
    );
    const rollUp = messages.map(digestOf).find((d) => d.groups.length > 1);
    expect(rollUp?.incident?.status).toBe("firing");
    const [block] = buttonsOf(rollUp as DigestV1);
    expect(block).toMatchObject({
      elements: [
        { value: rollUp?.incident?.key },
        { value: rollUp?.incident?.key },
        { value: rollUp?.incident?.key },
      ],
    });
  });

  it("fit within Slack's 50 blocks however many groups the message holds", () => {
    // Each group a state of its own, so that no roll-up speaks for them: one section each.
    const many = Array.from({ length: 80 }, (_, i) => t(i, "firing", { region: `r-${i}`, state: `s${i}` }));
    const digest = digestOf(renderDigests({ ...ctx, forChannels: true }, many)[0]);
    digest.incident = { key: "inc-AAAAAAAAAAAAAAAAAAAAAAAA", status: "firing", startsAt: digest.at };
    const message = slackMessage(digest, { incidentActions: true });
    expect(message.blocks).toHaveLength(50);
    expect(message.blocks.at(-1)).toMatchObject({ block_id: INCIDENT_BUTTONS_BLOCK });
    expect(refusal(message)).toBeUndefined();
  });
});
