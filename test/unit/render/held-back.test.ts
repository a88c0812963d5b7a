import type { DigestMessage, Transition } from "@fleet-auditor/audit";
import { renderDigests, renderIncidentMessages, renderPagerMessages } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { AT, ctx, t } from "../../helpers/transitions.ts";

// A transition held back by an inhibition rule is in no message, as a silenced one: not in the
// digest, not in its incident's message; only a pager's resolve carries it, since the alert it
// closes was opened before.

const inhibited = (tr: Transition): Transition => ({ ...tr, inhibitedBy: "instance-09999" });
const inIncident = (tr: Transition, key: string, pager?: "trigger" | "resolve"): Transition => ({
  ...tr,
  incident: {
    key,
    startsAt: AT,
    openedAt: AT,
    firing: tr.kind === "resolved" ? 0 : 1,
    ...(tr.kind === "resolved" ? { ended: true as const } : {}),
    ...(pager ? { pager } : {}),
  },
});
const named = (m: DigestMessage | undefined): string[] =>
  (
    JSON.parse(JSON.parse(m?.message ?? "{}").default ?? "{}") as {
      transitions?: Array<{ instanceID: string }>;
    }
  ).transitions?.map((x) => x.instanceID) ?? [];

describe("held-back transitions in messages", () => {
  it("leave an inhibited transition out of the digest, and render nothing when all are", () => {
    const [digest, ...more] = renderDigests(ctx, [inhibited(t(1)), t(2)]);
    expect(more).toEqual([]);
    expect(digest?.transitions).toEqual([1]);
    expect(named(digest)).toEqual(["instance-00002"]);
    expect(renderDigests(ctx, [inhibited(t(1))])).toEqual([]);
  });

  it("give an incident whose news is all inhibited no message of its own", () => {
    const messages = renderIncidentMessages({ ...ctx, at: AT }, [
      inIncident(inhibited(t(1)), "inc-held"),
      inIncident(t(2), "inc-told"),
    ]);
    expect(messages).toHaveLength(1);
    expect(named(messages[0])).toEqual(["instance-00002"]);
  });

  it("carry an inhibited end in the pager's resolve, shown as any end", () => {
    const [resolve] = renderPagerMessages(ctx, [inIncident(inhibited(t(1, "resolved")), "inc-a", "resolve")]);
    expect(resolve?.transitions).toEqual([0]);
    expect(named(resolve)).toEqual(["instance-00001"]);
    // A trigger beside a told member leaves the inhibited one out.
    const [trigger] = renderPagerMessages(ctx, [
      inIncident(inhibited(t(1)), "inc-b", "trigger"),
      inIncident(t(2), "inc-b", "trigger"),
    ]);
    expect(trigger?.transitions).toEqual([1]);
  });
});
