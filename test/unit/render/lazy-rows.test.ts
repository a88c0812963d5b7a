import { definePresenter, type Presenter, planNotification } from "@fleet-auditor/audit";
import { kebPresenter } from "@fleet-auditor/keb-audits";
import { renderDigests } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { ctx, t } from "../../helpers/transitions.ts";

// A run of thousands names a few hundred: a row (the presenter's lines, note, details) is built
// when a channel first reads it, so a large run holds no row it does not tell.

function counting(): { presenter: Presenter; calls: () => number } {
  let calls = 0;
  const presenter = definePresenter({
    ...kebPresenter,
    lines: (...args) => {
      calls++;
      return kebPresenter.lines(...args);
    },
  });
  return { presenter, calls: () => calls };
}

describe("rows of a large run", () => {
  const transitions = Array.from({ length: 3_000 }, (_, i) =>
    t(i, "firing", { region: "eu-1", reason: "err_x" }),
  );

  it("are not built by the plan itself", () => {
    const { presenter, calls } = counting();
    const plan = planNotification({ ...ctx, presenter }, transitions, [...transitions.keys()]);
    expect(plan.groups[0]?.told).toHaveLength(3_000);
    expect(calls()).toBe(0);
    // Read once, kept: the same row every time.
    const first = plan.groups[0]?.told[0];
    expect(first?.row).toBe(first?.row);
    expect(calls()).toBe(1);
  });

  it("are built only for what the messages name, on every topic", () => {
    for (const forChannels of [false, true]) {
      const { presenter, calls } = counting();
      const [m] = renderDigests(
        { ...ctx, presenter, ...(forChannels ? { forChannels: true as const } : {}) },
        transitions,
      );
      expect(m?.omitted.length, `forChannels ${forChannels}`).toBeGreaterThan(0);
      expect(calls(), `forChannels ${forChannels}`).toBeLessThan(transitions.length / 2);
    }
  });
});
