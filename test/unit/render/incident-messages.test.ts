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
    const size = (m: DigestMessage) => m.transitions.length + m.omitted.length;
    // The open incident's news in its thread, the cap of new incidents each in one, one roll-up.
    expect(sent).toHaveLength(MAX_NEW_INCIDENT_MESSAGES + 2);
    expect(sent.map(thread)).toContain(thread(open));
    const rollUps = sent.filter((m) => size(m) > 1);
    expect(rollUps).toHaveLength(1);
    expect(size(rollUps[0] as DigestMessage)).toBe(50 - MAX_NEW_INCIDENT_MESSAGES);
    expect(rollUps[0]?.attributes.format).toBe("incident");
    expect(new Set(sent.map(thread)).size).toBe(sent.length);
    expect(parts(rollUps[0]).digest.incident?.status).toBe("firing");
    // Every transition of the storm is in exactly one message, named or counted.
    const covered = sent.flatMap((m) => [...m.transitions, ...m.omitted]);
    expect(new Set(covered).size).toBe(51);
    expect(covered).toHaveLength(51);
  });

  it("title a roll-up as holding several incidents, not as its first one with the roll-up's count", () => {
    const l = new Landscape();
    const storm = Array.from({ length: 50 }, (_, i) => failing(`s-${i}`, `region-${i}`));
    const sent = l.run(storm, 0);
    const rollUp = sent.find((m) => m.transitions.length + m.omitted.length > 1);
    const more = 50 - MAX_NEW_INCIDENT_MESSAGES - 1;
    // "failed (err_x) in region-10: 40 new runtimes" said that region-10 had 40.
    expect(rollUp?.subject).toMatch(
      new RegExp(`^failed \\(\\w+\\) in region-\\d+ \\+${more} more: 40 new runtimes \\|`),
    );
    expect(parts(rollUp).chatbot.content.title).toContain(`+${more} more: 40 new runtimes`);
    // An incident of its own is titled by its values alone.
    const own = sent.filter((m) => m !== rollUp);
    expect(own).toHaveLength(MAX_NEW_INCIDENT_MESSAGES);
    for (const m of own) expect(m.subject).toMatch(/^failed \(\w+\) shoot \S+ in region-\d+: new \|/);
  });

  it("tell a rolled-up incident's recovery in the roll-up's thread, never as a new top-level post", () => {
    const l = new Landscape();
    const storm = Array.from({ length: 30 }, (_, i) =>
      failing(`s-${i}`, `region-${String(i).padStart(2, "0")}`),
    );
    const sent = l.run(storm, 0);
    const size = (m: DigestMessage) => m.transitions.length + m.omitted.length;
    const rollUp = sent.find((m) => size(m) > 1);
    const rolled = new Set((rollUp?.transitions ?? []).concat(rollUp?.omitted ?? []));
    expect(rolled.size).toBe(30 - MAX_NEW_INCIDENT_MESSAGES);
    const ownThreads = new Set(sent.filter((m) => m !== rollUp).map(thread));
    // Half of every incident recovers: the rolled-up ones' ends are one message, in the roll-up's thread.
    const partial = l.run(
      storm.filter((_, i) => i % 2 === 0),
      1,
    );
    const inRollUp = partial.filter((m) => thread(m) === thread(rollUp));
    expect(inRollUp).toHaveLength(1);
    expect(parts(inRollUp[0]).digest.incident?.status).toBe("firing");
    for (const m of partial) expect(thread(m) === thread(rollUp) || ownThreads.has(thread(m))).toBe(true);
    expect(partial.length).toBeLessThanOrEqual(MAX_NEW_INCIDENT_MESSAGES + 1);
    // Everything recovers: the roll-up's thread hears it is over.
    const over = l.run([], 2);
    const end = over.filter((m) => thread(m) === thread(rollUp));
    expect(end).toHaveLength(1);
    expect(parts(end[0]).digest.incident?.status).toBe("resolved");
    for (const m of over) expect(thread(m) === thread(rollUp) || ownThreads.has(thread(m))).toBe(true);
  });
});
