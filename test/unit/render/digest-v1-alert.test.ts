import type { DigestContext, DigestMessage, Transition } from "@fleet-auditor/audit";
import { definePresenter } from "@fleet-auditor/audit";
import { kebPresenter } from "@fleet-auditor/keb-audits";
import { type DigestV1, DigestV1Schema, renderDigests, slackMessage } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { ctx, t } from "../../helpers/transitions.ts";

// An incident or pager message carries each row as channels render it (`alert`) beside its v1
// fields, within the same 256 KiB as the run's digest: a row carries only what a channel shows of
// it, so that a large incident's Slack message names nearly as many runtimes as the digest does.

const structured = (m: DigestMessage | undefined): DigestV1 =>
  DigestV1Schema.parse(JSON.parse((JSON.parse(m?.message ?? "{}") as { default: string }).default));

const forChannels = (context: DigestContext, transitions: Transition[]): DigestV1 =>
  structured(renderDigests({ ...context, forChannels: true }, transitions)[0]);

const inEuOne = (i: number): Transition => t(i, "firing", { region: "eu-1", reason: "err_x" });

describe("a row's alert in a message for channels", () => {
  it("adds nothing to a row past its group's first whose note is the first's, and to the first its note, inspect command and, first of the message, its details", () => {
    const transitions = [inEuOne(1), inEuOne(2), inEuOne(3)];
    const run = structured(renderDigests(ctx, transitions)[0]).transitions;
    const rows = forChannels(ctx, transitions).transitions;
    expect(rows.map(({ alert: _, ...v1 }) => v1)).toEqual(run);
    const note = "provision failed: quota exceeded";
    const [first, ...later] = rows;
    const { details, ...shown } = first?.alert ?? {};
    expect(shown).toEqual({ note, inspect: `kcp rt -i ${first?.instanceID} --ops -o json` });
    // A page's summary quotes the description of the message's first row.
    expect(details?.find((d) => d.name === "description")?.value).toBe("quota exceeded");
    expect(later.map((r) => r.alert)).toEqual([undefined, undefined]);
  });

  it("carries a note past its group's first row only where it differs, and Slack shows every row's own", () => {
    const presenter = definePresenter({
      ...kebPresenter,
      // Runtime 3 says something else, runtime 2 nothing at all.
      chatNote: (f, since) =>
        f.key === "instance-00003"
          ? "deprovision failed: stuck"
          : f.key === "instance-00002"
            ? undefined
            : kebPresenter.chatNote(f, since),
    });
    const digest = forChannels({ ...ctx, presenter }, [inEuOne(1), inEuOne(2), inEuOne(3), inEuOne(4)]);
    expect(digest.transitions[0]?.instanceID).toBe("instance-00004");
    expect(Object.fromEntries(digest.transitions.map((r) => [r.instanceID, r.alert?.note]))).toEqual({
      "instance-00004": "provision failed: quota exceeded",
      "instance-00003": "deprovision failed: stuck",
      "instance-00002": "",
      "instance-00001": undefined,
    });
    const text = JSON.stringify(slackMessage(digest));
    expect(text).toContain("`instance-00004`: provision failed: quota exceeded");
    expect(text).toContain("`instance-00003`: deprovision failed: stuck");
    expect(text).toMatch(/`instance-00002`\\n/);
    expect(text).toContain("`instance-00001`: provision failed: quota exceeded");
  });

  it("carries a lone member's details, what a chat can show of one runtime", () => {
    const [row] = forChannels(ctx, [t(1)]).transitions;
    expect(row?.alert?.details).toEqual([
      { name: "description", value: "quota exceeded" },
      { name: "operation", value: "provision failed" },
      { name: "shoot", value: "c-0000001" },
      { name: "region", value: "westeurope" },
      { name: "instance", value: "instance-00001" },
    ]);
  });

  it("carries the key and summary when the row's instanceID and shootName say otherwise, and Slack names it by them", () => {
    const presenter = definePresenter({
      ...kebPresenter,
      digestV1: {
        row: (f) => ({ ...kebPresenter.digestV1.row(f), instanceID: "v1-id", shootName: "v1-name" }),
        group: {},
      },
    });
    const digest = forChannels({ ...ctx, presenter }, [t(1)]);
    expect(digest.transitions[0]?.alert).toMatchObject({ key: "instance-00001", summary: "c-0000001" });
    const text = JSON.stringify(slackMessage(digest));
    expect(text).toContain("|c-0000001> `instance-00001`");
    expect(text).not.toContain("v1-name");
  });

  it("leaves a large incident's message room to name at least nine in ten of the runtimes the run's digest names", () => {
    const transitions = Array.from({ length: 3_000 }, (_, i) =>
      t(i, "firing", { region: `eu-${i % 8}`, reason: "err_provisioning" }),
    );
    const run = structured(renderDigests(ctx, transitions)[0]);
    const channels = forChannels(ctx, transitions);
    expect(channels.omitted).toBeGreaterThan(0);
    expect(channels.transitions.length).toBeGreaterThanOrEqual(0.9 * run.transitions.length);
  });
});
