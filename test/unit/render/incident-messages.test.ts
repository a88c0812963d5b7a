import type { DigestMessage } from "@fleet-auditor/audit";
import { type ChatbotNotification, MAX_NEW_INCIDENT_MESSAGES } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { failing, Landscape } from "../../helpers/incident-landscape.ts";

// Chat follows incidents: one message per incident with news in a run, in the incident's own
// thread from its first firing to its end; new incidents are capped, the rest rolled up.

const parts = (m: DigestMessage | undefined) => {
  const body = JSON.parse(m?.message ?? "{}") as { default: string; https: string };
  return {
    digest: JSON.parse(body.default) as {
      incident?: { key: string; status: string };
      transitions: Array<{ kind: string }>;
    },
    chatbot: JSON.parse(body.https) as ChatbotNotification,
  };
};
const thread = (m: DigestMessage | undefined): string => parts(m).chatbot.metadata.threadId;

describe("incident messages", () => {
  it("follow one incident from firing through a change and a reminder to its end in one thread, beside another", () => {
    const l = new Landscape();
    const opened = l.run([failing("a", "eu-1"), failing("b", "eu-1"), failing("x", "us-1")], 0);
    expect(opened).toHaveLength(2);
    const [eu, us] = opened.map((m) => parts(m));
    expect(eu?.digest.incident).toMatchObject({ status: "firing" });
    expect(thread(opened[0])).toMatch(/^fleet-auditor:prod-eu:failing:incident:inc-/);
    expect(thread(opened[0])).not.toBe(thread(opened[1]));
    expect(opened.every((m) => m.attributes.format === "incident")).toBe(true);
    const euThread = thread(opened[0]);
    const usThread = thread(opened[1]);
    expect(us?.digest.transitions).toHaveLength(1);

    // A change of reason is told in the incident it fired in.
    const changed = l.run(
      [failing("a", "eu-1", "err_timeout", "op-2"), failing("b", "eu-1"), failing("x", "us-1")],
      1,
    );
    expect(changed.map(thread)).toEqual([euThread]);
    expect(parts(changed[0]).digest.transitions.map((t) => t.kind)).toEqual(["changed"]);
    // A reminder, a day later, in the same threads.
    const reminders = l.run(
      [failing("a", "eu-1", "err_timeout", "op-2"), failing("b", "eu-1"), failing("x", "us-1")],
      25,
    );
    expect(reminders.map(thread).sort()).toEqual([euThread, usThread].sort());
    // The end: one member, then the last; the incident says it is resolved.
    const one = l.run([failing("b", "eu-1"), failing("x", "us-1")], 26);
    expect(one.map(thread)).toEqual([euThread]);
    expect(parts(one[0]).digest.incident?.status).toBe("firing");
    const end = l.run([failing("x", "us-1")], 27);
    expect(end.map(thread)).toEqual([euThread]);
    expect(parts(end[0]).digest.incident?.status).toBe("resolved");
    // The same place failing again is a new incident, in a new thread.
    const again = l.run([failing("a", "eu-1"), failing("x", "us-1")], 28);
    expect(again).toHaveLength(1);
    expect(thread(again[0])).not.toBe(euThread);
    expect(thread(again[0])).toMatch(/:incident:inc-/);
  });

  it("send at most the cap of new incidents and roll up the rest, while open incidents' news still reaches their threads", () => {
    const l = new Landscape();
    const [open] = l.run([failing("a", "eu-1")], 0);
    const storm = Array.from({ length: 50 }, (_, i) => failing(`s-${i}`, `region-${i}`));
    const sent = l.run([failing("a", "eu-1", "err_timeout", "op-2"), ...storm], 1);
    const own = sent.filter((m) => parts(m).digest.incident);
    expect(own).toHaveLength(MAX_NEW_INCIDENT_MESSAGES + 1);
    expect(own.map(thread)).toContain(thread(open));
    const rollUps = sent.filter((m) => !parts(m).digest.incident);
    expect(rollUps).toHaveLength(1);
    expect(rollUps[0]?.attributes.format).toBe("incident");
    // Every transition of the storm is in exactly one message, named or counted.
    const covered = sent.flatMap((m) => [...m.transitions, ...m.omitted]);
    expect(new Set(covered).size).toBe(51);
    expect(covered).toHaveLength(51);
  });
});
