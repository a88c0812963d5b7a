import {
  type FunctionUrlEvent,
  inboundRequest,
  isRefusal,
  SLACK_TIMESTAMP_TOLERANCE_SECONDS,
  verifySlackSignature,
} from "@fleet-auditor/inbound";
import { describe, expect, it } from "vitest";
import {
  blockActions,
  formBody,
  functionUrlEvent,
  SIGNING_SECRET,
  type SignedRequest,
  signedClick,
  slackSignature,
} from "../../helpers/slack-clicks.ts";

// Slack's rules, as "Verifying requests from Slack" (docs.slack.dev) states them:
// - "Slack creates a unique string for your app and shares it with you. Verify requests from
//   Slack with confidence by verifying signatures using your signing secret."
// - "Concatenate the version number, the timestamp, and the body of the request to form a
//   basestring. Use a colon as the delimiter between the three elements. For example,
//   v0:123456789:command=/weather&text=94070. The version number right now is always v0."
// - "With the help of HMAC SHA256 implemented in your favorite programming language, hash the
//   above basestring, using the Slack Signing Secret as the key." "Compare this computed
//   signature to the X-Slack-Signature header on the request."
// - "The signature depends on the timestamp to protect against replay attacks. [...] we verify
//   that the timestamp does not differ from local time by more than five minutes."
// - Raw body: "Make sure that this request body contains no headers and is not deserialized in
//   any way. Slack only uses the raw request payload."

const NOW = 1_800_000_000;
const MAX = 256 * 1024;
const click = () => blockActions({ responseUrl: "https://hooks.slack.com/actions/T0FLEETTEAM/1/abc" });

/** The request the function takes from a function URL event of `signed`. */
function requestOf(signed: SignedRequest, base64 = false) {
  const request = inboundRequest(functionUrlEvent(signed, { base64 }) as FunctionUrlEvent, MAX);
  if (isRefusal(request)) throw new Error(request.detail);
  return request;
}
const verify = (signed: SignedRequest, base64 = false, nowSeconds = NOW) =>
  verifySlackSignature(requestOf(signed, base64), { signingSecret: SIGNING_SECRET, nowSeconds });

describe("Slack's request signature", () => {
  it("reproduces Slack's documented example: its secret, timestamp and body give its signature", () => {
    // The example on Slack's page, a slash command's body, byte for byte.
    const body =
      "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    const signed = {
      headers: {
        "X-Slack-Request-Timestamp": "1531420618",
        "X-Slack-Signature": "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
      },
      body,
    };
    expect(verify(signed, false, 1_531_420_618 + 30)).toBeUndefined();
    expect(slackSignature(body, "1531420618")).toBe(signed.headers["X-Slack-Signature"]);
  });

  it("takes a click signed now, whether the function URL passes its body as text or base64", () => {
    const signed = signedClick(click(), { at: NOW });
    expect(verify(signed)).toBeUndefined();
    expect(verify(signed, true)).toBeUndefined();
  });

  it("refuses a forged signature, one made with another secret, and one over another body", () => {
    const signed = signedClick(click(), { at: NOW });
    const forged = { ...signed, headers: { ...signed.headers, "X-Slack-Signature": `v0=${"0".repeat(64)}` } };
    expect(verify(forged)?.refused).toBe("bad-signature");
    expect(verify(signedClick(click(), { at: NOW, secret: "another-apps-secret" }))?.refused).toBe(
      "bad-signature",
    );
    // A signature Slack made, on a body someone changed (another incident's key).
    const other = formBody({
      ...click(),
      actions: [{ type: "button", action_id: "fleet-auditor.ack", value: "inc-B" }],
    });
    expect(verify({ ...signed, body: other })?.refused).toBe("bad-signature");
    // The same timestamp and body signed for another time: the timestamp is in what is signed.
    const moved = { ...signed, headers: { ...signed.headers, "X-Slack-Request-Timestamp": String(NOW + 1) } };
    expect(verify(moved)?.refused).toBe("bad-signature");
  });

  it("refuses a request replayed more than five minutes later, and one dated more than five minutes ahead", () => {
    const signed = signedClick(click(), { at: NOW });
    expect(SLACK_TIMESTAMP_TOLERANCE_SECONDS).toBe(5 * 60);
    expect(verify(signed, false, NOW + 300)).toBeUndefined();
    expect(verify(signed, false, NOW + 301)?.refused).toBe("stale");
    expect(verify(signed, false, NOW - 300)).toBeUndefined();
    expect(verify(signed, false, NOW - 301)?.refused).toBe("stale");
  });

  it("refuses missing, repeated and malformed headers, and any scheme but v0", () => {
    const signed = signedClick(click(), { at: NOW });
    const sig = signed.headers["X-Slack-Signature"] as string;
    const hex = sig.slice(3);
    const withHeaders = (headers: Record<string, string | undefined>): SignedRequest => ({
      body: signed.body,
      headers: Object.fromEntries(
        Object.entries({ ...signed.headers, ...headers }).filter(
          (e): e is [string, string] => e[1] !== undefined,
        ),
      ),
    });
    for (const [what, headers] of [
      ["no signature", { "X-Slack-Signature": undefined }],
      ["no timestamp", { "X-Slack-Request-Timestamp": undefined }],
      ["a v1= signature", { "X-Slack-Signature": `v1=${hex}` }],
      ["a bare hex", { "X-Slack-Signature": hex }],
      ["a short hex", { "X-Slack-Signature": sig.slice(0, -2) }],
      ["upper-case hex", { "X-Slack-Signature": `v0=${hex.toUpperCase()}` }],
      // A header sent twice reaches the function joined by a comma.
      ["two signatures", { "X-Slack-Signature": `${sig},${sig}` }],
      ["two timestamps", { "X-Slack-Request-Timestamp": `${NOW},${NOW}` }],
      ["a timestamp in milliseconds' decimals", { "X-Slack-Request-Timestamp": `${NOW}.5` }],
      ["a negative timestamp", { "X-Slack-Request-Timestamp": `-${NOW}` }],
      ["an empty timestamp", { "X-Slack-Request-Timestamp": "" }],
    ] as const)
      expect(verify(withHeaders(headers))?.refused, what).toBe("unsigned");
    // The same header twice in an event under two spellings counts as sent twice.
    const event = functionUrlEvent(signed) as unknown as FunctionUrlEvent & {
      headers: Record<string, string>;
    };
    event.headers["X-Slack-Signature"] = sig;
    const twice = inboundRequest(event, MAX);
    expect(isRefusal(twice)).toBe(false);
    if (!isRefusal(twice))
      expect(verifySlackSignature(twice, { signingSecret: SIGNING_SECRET, nowSeconds: NOW })?.refused).toBe(
        "unsigned",
      );
  });

  it("refuses a body past the cap before decoding or hashing it, and anything but a POST", () => {
    const huge = signedClick(click(), { at: NOW, body: `payload=${"x".repeat(MAX)}` });
    for (const base64 of [false, true]) {
      const refused = inboundRequest(functionUrlEvent(huge, { base64 }) as FunctionUrlEvent, MAX);
      expect(isRefusal(refused) && refused.refused, `base64: ${base64}`).toBe("too-large");
    }
    // At the cap exactly, it is taken (and then verified).
    const atCap = signedClick(click(), { at: NOW, body: "x".repeat(MAX) });
    expect(verify(atCap)).toBeUndefined();
    expect(verify(atCap, true)).toBeUndefined();
    const get = inboundRequest(
      functionUrlEvent(signedClick(click()), { method: "GET" }) as FunctionUrlEvent,
      MAX,
    );
    expect(isRefusal(get) && get.refused).toBe("method");
  });

  it("names what was wrong in a refusal, never the signature or the body", () => {
    const signed = signedClick(click(), { at: NOW });
    const forged = {
      ...signed,
      headers: { ...signed.headers, "X-Slack-Signature": `v0=${"ab".repeat(32)}` },
    };
    const refusal = verify(forged);
    expect(refusal?.detail).toBe("X-Slack-Signature does not match the body and timestamp");
    expect(JSON.stringify(refusal)).not.toContain("abab");
  });
});
