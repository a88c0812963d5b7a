import type { DigestMessage, Transition } from "@fleet-auditor/audit";
import {
  EDGE_GROUP_BY,
  edgePresenter,
  quarantinedFinding,
  refusedFinding,
  stuckFinding,
} from "@fleet-auditor/kubeedge-audit";
import { type DigestV1, renderDigests, slackMessage } from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { edited } from "../../helpers/findings.ts";
import { AT, ctx, t } from "../../helpers/transitions.ts";

// Every channel's rendering as received, for the KEB and the applications audits, kept byte for
// byte: the e-mail, Chatbot, Slack (from the structured digest, as the Slack function renders
// it), the structured digest itself and the per-runtime messages. A change to any rendering shows
// here as a diff to read, not as a test that still passes.

const body = (m: DigestMessage | undefined) =>
  JSON.parse(m?.message ?? "{}") as { default: string; email: string; https: string };

/** The structured digest as a contract reader sees it; `labels` are additive and compared apart. */
function structured(m: DigestMessage | undefined): DigestV1 {
  return JSON.parse(body(m).default) as DigestV1;
}

/**
 * The digest without the fields a later release added (consumers ignore fields they do not know).
 * The labels take room in the publish: at 3,000 transitions the run's digest still names 251
 * rows, as before labels, but the incidents topic's (labels and rows for channels) names 249, 17
 * in each resolved group instead of 18 (the rest counted in `omitted`; every one is in the run
 * report), which the Slack snapshot shows.
 */
function withoutAdditions(d: DigestV1): unknown {
  return JSON.parse(JSON.stringify(d), (key, value) => (key === "labels" ? undefined : value));
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

function changed(i: number): Transition {
  const now = t(i, "changed");
  const was = edited(t(i, "firing", { state: "error", severity: "warning" }).finding, (flat) => ({
    operation: { ...(flat.operation as object), operationID: "op-0" },
  }));
  return { ...now, previousState: "error", previous: was };
}

/** A runtime that was `wasState` (`wasReason`) and is now failed with `reason`: a collapsed changed group's member. */
function changedFrom(i: number, wasState: string, wasReason: string, reason: string): Transition {
  const now = t(i, "changed", { region: "eu-central-1", reason });
  const was = t(i, "firing", { state: wasState, severity: "warning", reason: wasReason }).finding;
  return { ...now, previousState: wasState, previous: was };
}

/**
 * A landscape-wide event: 20,000 runtimes failing over 10 regions and 3 reasons (30 groups, one
 * roll-up), a distinct 10-runtime incident that must still get runtimes named, 201 runtimes that
 * changed from two different states, a free-text reason (no runbook link), reminders and
 * resolutions told last.
 */
function landscapeEvent(): Transition[] {
  const reasons = ["err_keb_timeout", "err_kyma_failed", "err_gardener_quota"];
  return [
    ...Array.from({ length: 200 }, (_, i) => t(60_000 + i, "resolved")),
    ...Array.from({ length: 20_000 }, (_, i) =>
      t(i, "firing", { region: `region-${i % 10}`, reason: reasons[Math.floor(i / 10) % 3] as string }),
    ),
    ...Array.from({ length: 10 }, (_, i) =>
      t(40_000 + i, "firing", {
        region: "eu-west-2",
        reason: "err_dns",
        state: "error",
        severity: "warning",
      }),
    ),
    ...Array.from({ length: 120 }, (_, i) => changedFrom(50_000 + i, "error", "err_x", "err_z")),
    ...Array.from({ length: 81 }, (_, i) => changedFrom(50_200 + i, "failed", "err_y", "err_z")),
    ...Array.from({ length: 4 }, (_, i) =>
      t(55_000 + i, "firing", { region: "us-east-1", reason: "etcdserver: request timed out" }),
    ),
    ...Array.from({ length: 30 }, (_, i) => t(70_000 + i, "reminder")),
  ];
}

const minutesBefore = (m: number): string => new Date(Date.parse(AT) - m * 60_000).toISOString();

function edge(i: number, kind: Transition["kind"]): Transition {
  const which = i % 3;
  const node = `edge-${i % 4}`;
  const f =
    which === 0
      ? stuckFinding({
          id: `app-${i}`,
          node,
          key: `/core/v1/services/ns-${i}/svc-${i}`,
          verb: "list",
          resource: "services",
          status: "InApplying",
          since: minutesBefore(40 + i),
          firstSeenAt: minutesBefore(30),
        })
      : which === 1
        ? refusedFinding({
            node,
            reason: "Forbidden",
            code: 403,
            count: 5 + i,
            requests: ["list services", "watch pods"],
            keys: [`/core/v1/services/ns-${i}/null`],
            firstAt: minutesBefore(20),
            lastAt: minutesBefore(1),
          })
        : quarantinedFinding(`MS_BAD_${i}`, i);
  return {
    kind,
    key: f.key,
    state: f.labels.state as string,
    previousState: kind === "firing" ? null : (f.labels.state as string),
    severity: f.severity,
    finding: f,
    since: minutesBefore(45 + i),
  };
}

const edgeCtx = {
  ...ctx,
  audit: "applications",
  groupBy: EDGE_GROUP_BY,
  presenter: edgePresenter,
  listedWhat: "Applications",
  links: { ...ctx.links, runbook: "https://runbooks.example/edge/{node}/{reason}" },
};

const cases: Array<[string, typeof ctx, () => Transition[]]> = [
  ["keb 1", ctx, () => [t(1)]],
  [
    "keb 50",
    ctx,
    () => [
      ...Array.from({ length: 25 }, (_, i) =>
        t(i, "firing", { region: "eu-central-1", reason: "err_quota" }),
      ),
      ...Array.from({ length: 5 }, (_, i) => changed(50 + i)),
      ...Array.from({ length: 10 }, (_, i) => t(100 + i, "reminder")),
      ...Array.from({ length: 10 }, (_, i) => t(200 + i, "resolved")),
    ],
  ],
  [
    // One reason over eight regions: a roll-up, then the first three regions' groups.
    "keb 3000",
    ctx,
    () => [
      ...Array.from({ length: 2_601 }, (_, i) =>
        t(i, "firing", { region: `eu-${i % 8}`, reason: "err_provisioning" }),
      ),
      ...Array.from({ length: 250 }, (_, i) => t(10_000 + i, "reminder")),
      ...Array.from({ length: 149 }, (_, i) => t(30_000 + i, "resolved")),
    ],
  ],
  ["keb 20000", ctx, landscapeEvent],
  ["edge 1", edgeCtx, () => [edge(0, "firing")]],
  [
    "edge 50",
    edgeCtx,
    () => [
      ...Array.from({ length: 30 }, (_, i) => edge(i, "firing")),
      ...Array.from({ length: 10 }, (_, i) => edge(30 + i, "reminder")),
      ...Array.from({ length: 10 }, (_, i) => edge(40 + i, "resolved")),
    ],
  ],
];

describe("renderings as received, every channel (snapshots)", () => {
  it.each(cases)(
    "%s: e-mail, Chatbot, Slack and the structured digest",
    async (name, context, make) => {
      const transitions = make();
      const [m] = renderDigests(context, transitions);
      const slug = name.replace(/ /g, "-");
      const digest = structured(m);
      // Slack renders what the incidents topic carries: the same digest with its rows for channels.
      const [forSlack] = renderDigests({ ...context, forChannels: true }, transitions);
      await expect(json(slackMessage(structured(forSlack)))).toMatchFileSnapshot(
        `__snapshots__/slack-${slug}.json`,
      );
      await expect(json(withoutAdditions(digest))).toMatchFileSnapshot(`__snapshots__/digest-${slug}.json`);
      await expect(`Subject: ${m?.subject}\n\n${body(m).email}\n`).toMatchFileSnapshot(
        `__snapshots__/email-${slug}.txt`,
      );
      await expect(json(JSON.parse(body(m).https))).toMatchFileSnapshot(`__snapshots__/chatbot-${slug}.json`);
      // A hang guard: rendering 20,000 transitions twice takes seconds, more on a loaded machine.
    },
    60_000,
  );
});
