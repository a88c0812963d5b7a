import { createHttpAgent } from "@fleet-auditor/http/agent";
import { SlackBot, type SlackBotOptions, SlackPostError } from "@fleet-auditor/notify";
import { beforeEach, describe, expect, it } from "vitest";
import { useFakeSlackApi } from "../../helpers/fake-slack-api.ts";

// The bot client against a stand-in of Slack's Web API on loopback: chat.postMessage with the
// bearer token, threads, Slack's refusals (HTTP 200, ok: false) and its 429s and 500s.

const fake = useFakeSlackApi();
const dispatcher = createHttpAgent();
const message = { text: "fleet-auditor: firing", blocks: [{ type: "divider" }] };
const soon = (): number => Date.now() + 10_000;

beforeEach(() => fake.api.reset());

function bot(over: Partial<SlackBotOptions> = {}): SlackBot {
  return new SlackBot({
    token: fake.api.token,
    channel: fake.api.channel,
    apiUrl: fake.api.apiUrl,
    dispatcher,
    minIntervalMs: 0,
    baseDelayMs: 10,
    ...over,
  });
}

describe("SlackBot", () => {
  it("posts through chat.postMessage with the bearer token and returns the message's ts", async () => {
    const posted = await bot().post(message, soon());
    expect(posted.ts).toMatch(/^\d+\.\d{6}$/);
    expect(fake.api.messages).toEqual([
      expect.objectContaining({ channel: fake.api.channel, ts: posted.ts, text: message.text }),
    ]);
    expect(fake.api.attempts[0]?.authorization).toBe(`Bearer ${fake.api.token}`);
  });

  it("replies under a parent's ts, and shows a reply in the channel too when it is broadcast", async () => {
    const b = bot();
    const parent = await b.post(message, soon());
    const reply = await b.post(message, soon(), { threadTs: parent.ts as string });
    const end = await b.post(message, soon(), { threadTs: parent.ts as string, broadcast: true });
    expect(fake.api.topLevel().map((m) => m.ts)).toEqual([parent.ts]);
    expect(fake.api.replies(parent.ts as string)).toEqual([
      expect.objectContaining({ ts: reply.ts, broadcast: false }),
      expect.objectContaining({ ts: end.ts, broadcast: true }),
    ]);
  });

  it("takes each of Slack's refusals for good: one attempt, an error naming Slack's error, never the token", async () => {
    const cases: Array<[Partial<SlackBotOptions>, object, string]> = [
      [{ channel: "C0NOSUCHCHANNEL" }, message, "channel_not_found"],
      [{ channel: fake.api.otherChannel }, message, "not_in_channel"],
      [{ token: "xoxb-wrong-SeCrEtToo" }, message, "invalid_auth"],
      [
        {},
        { text: "x", blocks: [{ type: "marquee" }] },
        "invalid_blocks block 0 (marquee): unknown block type marquee",
      ],
    ];
    for (const [options, payload, error] of cases) {
      fake.api.reset();
      const err = (await bot(options)
        .post(payload as typeof message, soon())
        .catch((e: unknown) => e)) as SlackPostError;
      expect(err).toBeInstanceOf(SlackPostError);
      expect(err.message).toBe(`the Slack post was refused: ${error}`);
      expect(err.code).toBe("NOTIFY_SLACK");
      expect(fake.api.attempts).toHaveLength(1);
      expect(`${err.message} ${err.body} ${err.stack}`).not.toMatch(/SeCrEt/);
    }
    expect(fake.api.messages).toEqual([]);
  });

  it("retries a 429 after its Retry-After and a 500 with backoff, then posts once", async () => {
    fake.api.faults.push(
      { status: 429, retryAfter: "1", body: '{"ok":false,"error":"ratelimited"}' },
      { status: 500, body: "oops" },
    );
    const posted = await bot().post(message, soon());
    expect(fake.api.attempts.map((a) => a.status)).toEqual([429, 500, 200]);
    const [first, second] = fake.api.attempts;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(fake.api.messages.map((m) => m.ts)).toEqual([posted.ts]);
  });

  it("posts once when the 2xx answer breaks off: never sent again, and no ts to thread under", async () => {
    fake.api.faults.push({ status: 200, breakOff: true, afterPosting: true });
    await expect(bot().post(message, soon())).resolves.toEqual({});
    expect(fake.api.attempts).toHaveLength(1);
    expect(fake.api.messages).toHaveLength(1);
  });

  it("refuses a 2xx answer that is not chat.postMessage's, without echoing it", async () => {
    fake.api.faults.push({ status: 200, body: `<html>echo: Bearer ${fake.api.token}</html>` });
    const err = (await bot()
      .post(message, soon())
      .catch((e: unknown) => e)) as SlackPostError;
    expect(err.message).toMatch(/not chat\.postMessage's/);
    expect(`${err.message} ${err.body}`).not.toMatch(/SeCrEt/);
    expect(fake.api.attempts).toHaveLength(1);
  });

  it("hides the token where an error page echoes it, and gives up when a Retry-After passes the deadline", async () => {
    fake.api.faults.push({ status: 403, body: `forbidden: Bearer ${fake.api.token}` });
    const refused = (await bot()
      .post(message, soon())
      .catch((e: unknown) => e)) as SlackPostError;
    expect(refused.message).toBe("the Slack post was refused: HTTP 403 forbidden: Bearer [redacted]");
    fake.api.faults.push({ status: 429, retryAfter: "30", body: "ratelimited" });
    // Gave up at once rather than sleep toward its deadline: far under it, however loaded the machine.
    const started = Date.now();
    await expect(bot().post(message, Date.now() + 20_000)).rejects.toThrow(
      "the Slack post kept failing: HTTP 429 ratelimited",
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("paces posts to one per interval per channel", async () => {
    const b = bot({ minIntervalMs: 300 });
    await b.post(message, soon());
    await b.post(message, soon());
    const [a, c] = fake.api.attempts;
    expect((c?.at ?? 0) - (a?.at ?? 0)).toBeGreaterThanOrEqual(298);
  });
});
