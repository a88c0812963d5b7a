import { type InboundRequest, isRefusal, parseSlackInteraction } from "@fleet-auditor/inbound";
import { describe, expect, it } from "vitest";
import { blockActions, CHANNEL, type ClickSpec, formBody, TEAM } from "../../helpers/slack-clicks.ts";

// A verified request is parsed as "Handling user interaction" (docs.slack.dev) describes a click:
// "the payload will be sent as application/x-www-form-urlencoded", its one field `payload` JSON of
// type `block_actions`; only one of the incident buttons, from the configured workspace and channel.

const RULES = { teamId: TEAM, channelId: CHANNEL, responseUrlPrefix: "https://hooks.slack.com/" };
const RESPONSE_URL = "https://hooks.slack.com/actions/T0FLEETTEAM/1/abc";
const KEY = "inc-AAAAAAAAAAAAAAAAAAAAAAAA";

const request = (body: string, contentType = "application/x-www-form-urlencoded"): InboundRequest => ({
  headers: new Map([["content-type", contentType]]),
  body: Buffer.from(body),
});
const click = (spec: Partial<ClickSpec> = {}) =>
  blockActions({ responseUrl: RESPONSE_URL, value: KEY, ...spec });
const parse = (body: string, contentType?: string) =>
  parseSlackInteraction(request(body, contentType), RULES);
const reasonOf = (body: string, contentType?: string) => {
  const parsed = parse(body, contentType);
  return isRefusal(parsed) ? parsed.refused : "taken";
};

describe("a Slack click, once its signature is verified", () => {
  it("becomes the action its button asks for on the incident its value names, by the user who clicked", () => {
    expect(parse(formBody(click()))).toMatchObject({
      action: { kind: "acknowledge" },
      key: KEY,
      by: "slack:U0ALICE (alice)",
      userId: "U0ALICE",
      responseUrl: RESPONSE_URL,
      message: { ts: "1764000001.000001" },
    });
    expect(parse(formBody(click({ actionId: "fleet-auditor.silence.24h" })))).toMatchObject({
      action: { kind: "silence", forMs: 86_400_000 },
    });
    // Slack may add a charset to the form's type.
    expect(reasonOf(formBody(click()), "application/x-www-form-urlencoded; charset=utf-8")).toBe("taken");
  });

  it("names the user by ID alone when their name is no username: one line, bounded", () => {
    for (const name of ["Alice Smith", "alice\n*silence:* all", "<!here>", "a".repeat(81)]) {
      const parsed = parse(formBody(click({ user: { id: "U0ALICE", username: name, name } })));
      expect(isRefusal(parsed) ? parsed.detail : parsed.by, name).toBe("slack:U0ALICE");
    }
    const named = parse(formBody(click({ user: { id: "U0BOB", name: "bob.smith" } })));
    expect(isRefusal(named) ? named.detail : named.by).toBe("slack:U0BOB (bob.smith)");
  });

  it("refuses what is not one form field holding block_actions JSON", () => {
    const json = JSON.stringify(click());
    expect(reasonOf(json, "application/json")).toBe("malformed");
    expect(reasonOf(`payload=${encodeURIComponent(json)}&payload=${encodeURIComponent(json)}`)).toBe(
      "malformed",
    );
    expect(reasonOf(`payload=${encodeURIComponent(json)}&token=x`)).toBe("malformed");
    expect(reasonOf("payload=%7Bnot%20json")).toBe("malformed");
    expect(reasonOf("")).toBe("malformed");
    expect(reasonOf(formBody({ ...click(), type: "view_submission" }))).toBe("malformed");
    expect(reasonOf(formBody([click()]))).toBe("malformed");
    expect(reasonOf(formBody(null))).toBe("malformed");
    // Bytes that are no UTF-8.
    expect(
      isRefusal(
        parseSlackInteraction({ ...request(""), body: Buffer.from([0x70, 0x3d, 0xff, 0xfe]) }, RULES),
      ),
    ).toBe(true);
  });

  it("refuses a payload missing a field it acts on, naming the field, not its value", () => {
    for (const field of ["team", "user", "channel", "actions", "response_url"]) {
      const payload: Record<string, unknown> = click();
      delete payload[field];
      const parsed = parse(formBody(payload));
      expect(isRefusal(parsed) && parsed.refused, field).toBe("malformed");
      expect(isRefusal(parsed) && parsed.detail, field).toContain(field);
    }
    const noValue = click();
    delete (noValue.actions as Array<Record<string, unknown>>)[0]?.value;
    expect(reasonOf(formBody(noValue))).toBe("malformed");
    const badUser = parse(formBody(click({ user: { id: "<@U0ALICE>" } })));
    expect(isRefusal(badUser) && badUser.detail).toBe("payload is not block_actions as expected at user.id");
  });

  it("refuses two actions in one request, an action that is none of the buttons, and a value that is no key", () => {
    expect(reasonOf(formBody(click({ moreActions: 1 })))).toBe("malformed");
    expect(reasonOf(formBody({ ...click(), actions: [] }))).toBe("malformed");
    expect(reasonOf(formBody(click({ actionId: "fleet-auditor.silence.forever" })))).toBe("malformed");
    expect(reasonOf(formBody(click({ actionId: "report" })))).toBe("malformed");
    for (const value of ["", "inc-A B", "inc-A\n", "x".repeat(101), "__proto__.x"])
      expect(reasonOf(formBody(click({ value }))), value).toBe("malformed");
  });

  it("refuses a click from another workspace or another channel as forbidden", () => {
    expect(reasonOf(formBody(click({ team: "T0OTHERTEAM" })))).toBe("forbidden");
    expect(reasonOf(formBody(click({ channel: "C0ELSEWHERE" })))).toBe("forbidden");
  });

  it("refuses a response_url that is not Slack's: nothing is posted anywhere else", () => {
    for (const url of [
      "https://evil.example/actions/x",
      "http://hooks.slack.com/actions/x",
      "https://hooks.slack.com.evil.example/x",
    ])
      expect(reasonOf(formBody(click({ responseUrl: url }))), url).toBe("malformed");
  });
});
