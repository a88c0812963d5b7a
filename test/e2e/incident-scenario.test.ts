import type { DigestV1 } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { type Told, useLandscapeFunctions } from "../helpers/landscape-functions.ts";

// One landscape followed through its incidents, from the audit function to every channel
// (`useLandscapeFunctions`). Each runtime is an incident of its own (GROUP_BY_FAILING=instance),
// so the story is the simulator's to tell exactly.

const { kit, pd, slack, runAt } = useLandscapeFunctions(
  "scenario",
  { size: 60, seed: 5, flagged: 0 },
  { GROUP_BY_FAILING: "instance" },
);

const keyOf = (m: { doc: DigestV1 } | DigestV1 | undefined): string | undefined =>
  m && ("doc" in m ? m.doc : m).incident?.key;
const about = (told: Told, id: string) =>
  told.chat.filter((m) => m.doc.transitions.some((t) => t.instanceID === id));
const alertsOf = (key: string) => pd.pagerduty.alerts.filter((a) => a.dedupKey === key).map((a) => a.status);

describe("an incident followed from start to end, in every channel", () => {
  it("keeps one thread per incident and one page per audit episode, a new key for the next, and a storm to the cap", async () => {
    const [a, b] = kit.sim.fleet.create(2).map((c) => c.instanceID) as [string, string];
    for (const id of [a, b]) kit.sim.fleet.fail(id, "provision");

    // Hour 0: two incidents open, each in a thread of its own; the pager gets one page for both.
    const opened = await runAt(0);
    const [inA] = about(opened, a);
    const [inB] = about(opened, b);
    expect(opened.chat).toHaveLength(2);
    const keyA = keyOf(inA) as string;
    const keyB = keyOf(inB) as string;
    expect(keyA).toMatch(/^inc-/);
    expect(keyB).not.toBe(keyA);
    expect(inA?.threadId).toBe(`fleet-auditor:e2e:failing:incident:${keyA}`);
    expect(opened.paged).toHaveLength(1);
    const page = keyOf(opened.paged[0]) as string;
    expect([keyA, keyB]).not.toContain(page);
    expect(opened.paged[0]?.transitions.map((t) => t.instanceID).sort()).toEqual([a, b].sort());
    expect(alertsOf(page)).toEqual(["triggered"]);
    const parents = slack.api.topLevel();
    expect(parents).toHaveLength(2);
    const parentA = parents.find((m) => JSON.stringify(m.blocks).includes(a));
    expect(parentA).toBeDefined();

    // Hour 1: a's operation fails again for another reason: told in a's incident, from what to what.
    kit.sim.fleet.fail(a, "provision");
    const changed = await runAt(1);
    expect(changed.chat.map((m) => [keyOf(m), m.doc.transitions.map((t) => t.kind)])).toEqual([
      [keyA, ["changed"]],
    ]);
    expect(changed.chat[0]?.threadId).toBe(inA?.threadId);
    const change = changed.chat[0]?.doc.transitions[0];
    expect(change?.previousOperation?.operationID).toBeDefined();
    expect(change?.previousOperation?.operationID).not.toBe(change?.operation?.operationID);
    expect(changed.paged).toEqual([]);

    // Hour 26: a day on, both are reminded, each in its own thread.
    const reminded = await runAt(26);
    expect(reminded.chat.map((m) => [keyOf(m), m.doc.transitions.map((t) => t.kind)]).sort()).toEqual(
      [
        [keyA, ["reminder"]],
        [keyB, ["reminder"]],
      ].sort(),
    );
    expect(reminded.paged).toEqual([]);

    // Hour 27: a recovers: its incident ends, in its thread; the page stays open for b.
    kit.sim.fleet.recover(a);
    const ended = await runAt(27);
    expect(ended.chat.map((m) => [keyOf(m), m.doc.incident?.status])).toEqual([[keyA, "resolved"]]);
    expect(ended.chat[0]?.threadId).toBe(inA?.threadId);
    expect(ended.paged).toEqual([]);
    expect(alertsOf(page)).toEqual(["triggered"]);

    // One Slack thread held all of a's news: the parent, then the change, the reminder, the end
    // (broadcast, so the channel sees it end).
    const repliesA = slack.api.replies(parentA?.ts ?? "");
    expect(repliesA).toHaveLength(3);
    expect(repliesA.map((r) => r.broadcast)).toEqual([false, false, true]);

    // Hour 28: a fails again: a new incident, under a new key, in a new thread; it joins the open page.
    kit.sim.fleet.fail(a, "provision");
    const again = await runAt(28);
    const keyA2 = keyOf(again.chat[0]) as string;
    expect(again.chat).toHaveLength(1);
    expect(keyA2).not.toBe(keyA);
    expect(again.chat[0]?.threadId).not.toBe(inA?.threadId);
    expect(again.paged).toEqual([]);
    expect(slack.api.topLevel()).toHaveLength(3);

    // Hour 29: a storm of 50 new incidents while b ends: 10 of them told on their own and the rest
    // in one roll-up with a thread of its own; b's end still reaches b's thread; the page, open
    // already, hears nothing: one event, one page.
    const storm = kit.sim.fleet.create(50).map((c) => c.instanceID);
    for (const id of storm) kit.sim.fleet.fail(id, "provision");
    kit.sim.fleet.recover(b);
    const stormy = await runAt(29);
    const size = (m: { doc: DigestV1 }) => m.doc.transitions.length + (m.doc.omitted ?? 0);
    const rollUps = stormy.chat.filter((m) => size(m) > 1);
    const own = stormy.chat.filter((m) => size(m) === 1 && keyOf(m) !== keyB);
    expect(own.filter((m) => m.doc.incident?.status === "firing")).toHaveLength(10);
    expect(rollUps).toHaveLength(1);
    expect(size(rollUps[0] as { doc: DigestV1 })).toBe(40);
    expect(rollUps[0]?.doc.incident?.status).toBe("firing");
    const endOfB = stormy.chat.filter((m) => keyOf(m) === keyB);
    expect(endOfB.map((m) => [m.doc.incident?.status, m.threadId])).toEqual([["resolved", inB?.threadId]]);
    expect(stormy.paged).toEqual([]);
    expect(pd.pagerduty.alerts.filter((x) => x.status === "triggered")).toHaveLength(1);
    // In Slack: b's thread holds its reminder and its end; the storm is 10 parents and a roll-up.
    const parentB = parents.find((m) => JSON.stringify(m.blocks).includes(b));
    expect(slack.api.replies(parentB?.ts ?? "").map((r) => r.broadcast)).toEqual([false, true]);
    expect(slack.api.topLevel()).toHaveLength(3 + 10 + 1);

    // Hour 30: half of the rolled-up runtimes recover: one message, in the roll-up's thread; no
    // new top-level post, and the page stays open.
    const rolled = rollUps[0]?.doc.transitions.map((t) => t.instanceID) ?? [];
    for (const id of rolled.slice(0, 20)) kit.sim.fleet.recover(id);
    const partial = await runAt(30);
    expect(partial.chat.map((m) => m.threadId)).toEqual([rollUps[0]?.threadId]);
    expect(partial.chat[0]?.doc.incident?.status).toBe("firing");
    expect(partial.paged).toEqual([]);
    expect(slack.api.topLevel()).toHaveLength(14);

    // Hour 31: everything recovers: the page is resolved once, every end in a thread it had.
    for (const id of [a, ...storm]) kit.sim.fleet.recover(id);
    const over = await runAt(31);
    expect(over.paged.map((p) => [keyOf(p), p.incident?.status])).toEqual([[page, "resolved"]]);
    expect(alertsOf(page)).toEqual(["resolved"]);
    expect(
      over.chat.filter((m) => m.threadId === rollUps[0]?.threadId).map((m) => m.doc.incident?.status),
    ).toEqual(["resolved"]);
    expect(slack.api.topLevel()).toHaveLength(14);
  }, 120_000);
  it("posts an incident that keeps opening and ending in the thread before it, marked flapping, each episode under its own key and page", async () => {
    const [f] = kit.sim.fleet.create(1).map((c) => c.instanceID) as [string];
    const episodes: Array<{ key: string; threadId: string; line: string }> = [];
    const topLevel = slack.api.topLevel().length;
    // Hours 32 to 39: f fails and recovers four times within a day.
    for (let n = 0; n < 4; n++) {
      kit.sim.fleet.fail(f, "provision");
      const opened = await runAt(32 + 2 * n);
      const [m] = about(opened, f);
      episodes.push({
        key: keyOf(m) as string,
        threadId: m?.threadId as string,
        line: JSON.stringify(m?.doc.incident),
      });
      expect(opened.paged.map((p) => p.incident?.status)).toEqual(["firing"]);
      kit.sim.fleet.recover(f);
      const ended = await runAt(33 + 2 * n);
      expect(about(ended, f).map((x) => x.threadId)).toEqual([m?.threadId]);
    }
    // Each episode keeps a key of its own; the first two open threads of their own, the third
    // (three in the window, it included) posts in the second's, the fourth there too.
    expect(new Set(episodes.map((e) => e.key)).size).toBe(4);
    const [one, two, three, four] = episodes;
    expect(two?.threadId).not.toBe(one?.threadId);
    expect(three?.threadId).toBe(two?.threadId);
    expect(four?.threadId).toBe(two?.threadId);
    expect(JSON.parse(three?.line ?? "{}")).toMatchObject({ key: three?.key, thread: two?.key, flapping: 3 });
    expect(JSON.parse(four?.line ?? "{}")).toMatchObject({ key: four?.key, thread: two?.key, flapping: 4 });
    expect(JSON.parse(two?.line ?? "{}")).not.toHaveProperty("flapping");
    // In Slack: two parents, the flapping episodes' messages replies in the second's thread, each
    // saying so; the pager is unchanged: a page of its own per episode, opened and resolved.
    expect(slack.api.topLevel()).toHaveLength(topLevel + 2);
    const parent = slack.api.topLevel().at(-1);
    const replies = slack.api.replies(parent?.ts ?? "").map((r) => JSON.stringify(r.blocks));
    expect(replies.filter((r) => r.includes("Flapping (3 times in the window)"))).toHaveLength(2);
    expect(replies.filter((r) => r.includes("Flapping (4 times in the window)"))).toHaveLength(2);
  }, 60_000);
});
