import {
  MAX_BODY_BYTES,
  type PagerDutyAction,
  type PagerDutyWebhookDeps,
  pagerDutyWebhook,
  type WebhookRequest,
} from "@fleet-auditor/inbound";
import { describe, expect, it } from "vitest";
import {
  PAGERDUTY_SERVICE_ID,
  PAGERDUTY_WEBHOOK_SECRET,
  type PagerDutyDelivery,
  pagerDutyDelivery,
  signatureHeader,
} from "../../helpers/fake-pagerduty.ts";

// The webhook's stages, against a core that records what it is asked: a delivery is verified
// before anything is parsed, parsed before anything acts, and a refused one never reaches the core.

const NOW = Date.parse("2026-11-30T06:10:00.000Z");
const MINUTE = 60_000;

function endpoint(
  answers: Array<"applied" | "already" | "unknown"> = [],
  secrets = [PAGERDUTY_WEBHOOK_SECRET],
) {
  const calls: PagerDutyAction[] = [];
  const reads: boolean[] = [];
  let now = NOW;
  const deps: PagerDutyWebhookDeps = {
    // The secret as Secrets Manager holds it: the first value cached, the last read afresh.
    secret: async (options) => {
      reads.push(options?.fresh === true);
      return (options?.fresh ? secrets.at(-1) : secrets[0]) as string;
    },
    act: async (action) => {
      calls.push(action);
      return { outcome: answers.shift() ?? "applied", keys: [action.key] };
    },
    serviceIds: [PAGERDUTY_SERVICE_ID],
    maxAgeMs: 30 * MINUTE,
    now: () => now,
  };
  return { answer: pagerDutyWebhook(deps), calls, reads, later: (ms: number) => (now += ms) };
}

const request = (d: PagerDutyDelivery, base64 = false): WebhookRequest => ({
  method: "POST",
  headers: Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toLowerCase(), v])),
  body: base64 ? Buffer.from(d.body).toString("base64") : d.body,
  isBase64Encoded: base64,
});
const at = (minutesBefore: number) => new Date(NOW - minutesBefore * MINUTE);
/** A delivery of `body` signed as PagerDuty would sign it. */
const signed = (body: string): PagerDutyDelivery => ({
  headers: { "X-PagerDuty-Signature": signatureHeader(body, [PAGERDUTY_WEBHOOK_SECRET]) },
  body,
});

describe("pagerDutyWebhook", () => {
  it("acts on an acknowledgement, an unacknowledgement and a resolve, naming who in PagerDuty did it", async () => {
    const { answer, calls } = endpoint(["applied", "applied", "applied"]);
    for (const eventType of ["incident.acknowledged", "incident.unacknowledged", "incident.resolved"]) {
      const a = await answer(
        request(pagerDutyDelivery({ eventType, incidentKey: "inc-k1", occurredAt: at(1) })),
      );
      expect([a.statusCode, JSON.parse(a.body)]).toEqual([200, { outcome: "applied" }]);
      expect(a).toMatchObject({ result: "acted", outcome: "applied", keys: ["inc-k1"] });
    }
    const by = "pagerduty:PLH1HKV (Alice Oncall)";
    expect(calls).toEqual([
      { kind: "acknowledge", key: "inc-k1", by },
      { kind: "unacknowledge", key: "inc-k1", by },
      { kind: "resolvedInPager", key: "inc-k1", by },
    ]);
  });

  it("answers a delivered event again (PagerDuty delivers at least once) with the core's `already`", async () => {
    const { answer, calls } = endpoint(["applied", "already"]);
    const d = pagerDutyDelivery({ occurredAt: at(1) });
    expect((await answer(request(d))).body).toBe('{"outcome":"applied"}');
    expect((await answer(request(d))).body).toBe('{"outcome":"already"}');
    expect(calls).toHaveLength(2);
  });

  it("verifies a base64 body over the bytes it decodes to", async () => {
    const { answer, calls } = endpoint();
    const d = pagerDutyDelivery({ occurredAt: at(1), agent: { id: "PZOE001", summary: "Zoë ✓" } });
    expect((await answer(request(d, true))).statusCode).toBe(200);
    expect(calls[0]?.by).toBe("pagerduty:PZOE001 (Zoë ✓)");
  });

  it("refuses a body over the cap before reading the secret or hashing, text or base64", async () => {
    const { answer, calls, reads } = endpoint();
    const big = signed(JSON.stringify({ event: { pad: "x".repeat(MAX_BODY_BYTES) } }));
    expect((await answer(request(big))).statusCode).toBe(413);
    expect((await answer(request(big, true))).statusCode).toBe(413);
    // Multi-byte characters: under the cap in characters, over it in bytes.
    const wide = signed(JSON.stringify({ pad: "é".repeat(MAX_BODY_BYTES / 2) }));
    expect(wide.body.length).toBeLessThan(MAX_BODY_BYTES + 20);
    expect(await answer(request(wide))).toMatchObject({ statusCode: 413, reason: "too-large" });
    expect(reads).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("refuses a missing, forged or foreign signature with 401, the core never called", async () => {
    const { answer, calls } = endpoint();
    const d = pagerDutyDelivery({ occurredAt: at(1) });
    const { "X-PagerDuty-Signature": _, ...unsigned } = d.headers;
    const cases: Array<[PagerDutyDelivery, string]> = [
      [{ ...d, headers: unsigned }, "signature-missing"],
      [
        { ...d, headers: { ...d.headers, "X-PagerDuty-Signature": `v1=${"0".repeat(64)}` } },
        "signature-mismatch",
      ],
      [
        { ...d, body: pagerDutyDelivery({ occurredAt: at(1), incidentKey: "inc-other" }).body },
        "signature-mismatch",
      ],
      [pagerDutyDelivery({ occurredAt: at(1), secrets: ["another-secret"] }), "signature-mismatch"],
      [{ ...d, headers: { ...d.headers, "X-PagerDuty-Signature": "v0=abc" } }, "signature-unsupported"],
      [{ ...d, headers: { ...d.headers, "X-PagerDuty-Signature": "v1" } }, "signature-malformed"],
    ];
    for (const [delivery, reason] of cases) {
      const a = await answer(request(delivery));
      expect([a.statusCode, a.result === "refused" && a.reason]).toEqual([401, reason]);
      expect(a.body).toBe(JSON.stringify({ refused: reason }));
    }
    expect(calls).toEqual([]);
  });

  it("takes a rotation's two signatures where only the second is the secret's", async () => {
    const { answer, calls } = endpoint();
    const d = pagerDutyDelivery({
      occurredAt: at(1),
      secrets: ["the-retired-secret", PAGERDUTY_WEBHOOK_SECRET],
    });
    expect((await answer(request(d))).statusCode).toBe(200);
    expect(calls).toHaveLength(1);
  });

  it("reads the secret afresh when no signature matches (rotated here), at most once a minute", async () => {
    const { answer, reads, later } = endpoint([], ["cached-old-secret", PAGERDUTY_WEBHOOK_SECRET]);
    expect((await answer(request(pagerDutyDelivery({ occurredAt: at(1) }))))?.statusCode).toBe(200);
    expect(reads).toEqual([false, true]);
    // Forgeries in a burst: the cache is not bypassed for each.
    const forged = pagerDutyDelivery({ occurredAt: at(1), secrets: ["forger"] });
    for (const _ of [1, 2, 3]) expect((await answer(request(forged))).statusCode).toBe(401);
    expect(reads).toEqual([false, true, false, false, false]);
    later(MINUTE);
    expect((await answer(request(forged))).statusCode).toBe(401);
    expect(reads.slice(5)).toEqual([false, true]);
  });

  it("refuses a signed body PagerDuty would not send with 400, naming the field, never its value", async () => {
    const { answer, calls } = endpoint();
    const good = JSON.parse(pagerDutyDelivery({ occurredAt: at(1) }).body) as {
      event: Record<string, unknown>;
    };
    const withEvent = (patch: Record<string, unknown>) =>
      JSON.stringify({ event: { ...good.event, ...patch } });
    const cases: Array<[string, RegExp]> = [
      ["not json", /not UTF-8 JSON/],
      ["[]", /\(body\): .*expected object/],
      [withEvent({ id: undefined }), /event\.id/],
      [withEvent({ occurred_at: "yesterday-SECRETISH" }), /event\.occurred_at/],
      [withEvent({ data: { type: "incident", id: "P1" } }), /event\.data\.service/],
      [withEvent({ data: { ...(good.event.data as object), type: "incident_note" } }), /event\.data\.type/],
      [withEvent({ agent: { id: "not an id\n" } }), /event\.agent\.id/],
    ];
    for (const [body, problem] of cases) {
      const a = await answer(request(signed(body)));
      expect(a.statusCode, body.slice(0, 60)).toBe(400);
      expect(a.result === "refused" && a.problem).toMatch(problem);
      expect(JSON.stringify(a)).not.toContain("SECRETISH");
    }
    // Not UTF-8: refused, not decoded with replacement characters.
    const latin = Buffer.from(withEvent({ agent: { id: "P1", summary: "\xe9" } }), "latin1");
    const a = await answer({
      method: "POST",
      headers: { "x-pagerduty-signature": signatureHeader(latin, [PAGERDUTY_WEBHOOK_SECRET]) },
      body: latin.toString("base64"),
      isBase64Encoded: true,
    });
    expect(a.statusCode).toBe(400);
    expect(calls).toEqual([]);
  });

  it("refuses a replay of a genuine delivery older than the bound, and an event from the far future", async () => {
    const { answer, calls } = endpoint();
    const old = pagerDutyDelivery({ occurredAt: at(31) });
    expect(await answer(request(old))).toMatchObject({ statusCode: 400, result: "refused", reason: "stale" });
    const ahead = pagerDutyDelivery({ occurredAt: at(-6) });
    expect(await answer(request(ahead))).toMatchObject({ statusCode: 400, reason: "stale" });
    // Within the bound (PagerDuty retries for about 20 minutes), and a clock a little behind.
    expect((await answer(request(pagerDutyDelivery({ occurredAt: at(29) })))).statusCode).toBe(200);
    expect((await answer(request(pagerDutyDelivery({ occurredAt: at(-4) })))).statusCode).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it("refuses an incident of another PagerDuty service with 403, whatever its type, nothing acted on", async () => {
    const { answer, calls } = endpoint();
    for (const eventType of ["incident.acknowledged", "incident.resolved"]) {
      const d = pagerDutyDelivery({ eventType, serviceId: "PANOTHER", occurredAt: at(1) });
      expect(await answer(request(d))).toMatchObject({ statusCode: 403, reason: "other-service" });
    }
    expect(calls).toEqual([]);
  });

  it("answers 200 to an event type it does not act on, and to PagerDuty's ping, acting on nothing", async () => {
    const { answer, calls } = endpoint();
    for (const eventType of [
      "pagey.ping",
      "incident.priority_updated",
      "incident.triggered",
      "service.updated",
    ]) {
      const a = await answer(request(pagerDutyDelivery({ eventType, occurredAt: at(1) })));
      expect([a.statusCode, a.result, JSON.parse(a.body)], eventType).toEqual([
        200,
        "ignored",
        { outcome: "ignored" },
      ]);
    }
    // The auditor's own health and test pages are no incident here.
    for (const incidentKey of ["hlt-abc", "tst-abc"]) {
      const a = await answer(request(pagerDutyDelivery({ incidentKey, occurredAt: at(1) })));
      expect(a).toMatchObject({ statusCode: 200, result: "ignored", why: "own-notice" });
    }
    expect(calls).toEqual([]);
  });

  it("answers 200 to an acknowledgement of an incident unknown here, so PagerDuty does not retry it, and counts it refused", async () => {
    const { answer, calls } = endpoint(["unknown", "unknown"]);
    const unknown = await answer(request(pagerDutyDelivery({ incidentKey: "inc-gone", occurredAt: at(1) })));
    expect(unknown).toMatchObject({ statusCode: 200, result: "refused", reason: "unknown-incident" });
    expect(JSON.parse(unknown.body)).toEqual({ outcome: "unknown" });
    // An incident opened by hand in PagerDuty has no key: unknown too, without asking the core.
    const unkeyed = await answer(request(pagerDutyDelivery({ incidentKey: null, occurredAt: at(1) })));
    expect(unkeyed).toMatchObject({ statusCode: 200, reason: "unknown-incident" });
    const odd = await answer(
      request(pagerDutyDelivery({ incidentKey: "inc\nforged log line", occurredAt: at(1) })),
    );
    expect(odd).toMatchObject({ statusCode: 200, reason: "unknown-incident" });
    // A resolve of an incident that ended here: the echo of the pager's own resolve, not a refusal.
    const echo = await answer(
      request(
        pagerDutyDelivery({ eventType: "incident.resolved", incidentKey: "inc-ended", occurredAt: at(1) }),
      ),
    );
    expect(echo).toMatchObject({ statusCode: 200, result: "ignored", why: "ended" });
    expect(calls.map((c) => c.key)).toEqual(["inc-gone", "inc-ended"]);
  });

  it("names who did it in one bounded line, or PagerDuty itself when no agent is given", async () => {
    const { answer, calls } = endpoint();
    const summary = `Mallory\n[ERROR] forged line\u0007 ${"x".repeat(500)}`;
    await answer(request(pagerDutyDelivery({ occurredAt: at(1), agent: { id: "PMALORY", summary } })));
    await answer(request(pagerDutyDelivery({ occurredAt: at(1), agent: null })));
    const [first, second] = calls.map((c) => c.by);
    expect(first).toMatch(/^pagerduty:PMALORY \(Mallory \[ERROR\] forged line x+…\)$/);
    expect(first?.length).toBeLessThanOrEqual(100);
    expect(second).toBe("pagerduty");
  });

  it("refuses anything but a POST", async () => {
    const { answer, calls, reads } = endpoint();
    const a = await answer({ ...request(pagerDutyDelivery()), method: "GET" });
    expect(a).toMatchObject({ statusCode: 405, reason: "method" });
    expect([calls, reads]).toEqual([[], []]);
  });
});
