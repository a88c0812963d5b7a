import {
  type AuditDefinition,
  definePresenter,
  type Finding,
  parseMatchers,
  type Silence,
} from "@fleet-auditor/audit";
import { type DigestV1, DigestV1Schema, reportDigests, slackMessage } from "@fleet-auditor/render";
import { type AuditRunDeps, type AuditSource, runAudit } from "@fleet-auditor/use-cases";
import { describe, expect, it } from "vitest";
import {
  MemoryAuditStore,
  MemoryPublisher,
  MemoryReportStore,
  MemorySilences,
} from "../../helpers/memory-ports.ts";
import { withDeps } from "../../helpers/run-deps.ts";
import { testAudits } from "../../helpers/test-audits.ts";

// An audit the engine has never heard of, made of a stand-in source and a presenter alone: TLS
// certificates that expire, labelled by cluster, issuer and secret (neither KEB's labels nor the
// edge's), grouped by issuer and state (not a default). It runs end to end through the diff,
// silences with each of Alertmanager's operators, the digest, Slack and the run report, and
// nothing of the engine or the channels was written for it.

interface Certificate {
  cluster: string;
  namespace: string;
  secret: string;
  issuer: string;
  state: "expiring" | "expired";
  notAfter: string;
}

const certificate = (c: Certificate): Finding => ({
  key: `${c.cluster}/${c.namespace}/${c.secret}`,
  labels: {
    cluster: c.cluster,
    namespace: c.namespace,
    secret: c.secret,
    issuer: c.issuer,
    state: c.state,
  },
  severity: c.state === "expired" ? "critical" : "warning",
  startsAt: c.notAfter,
  summary: `${c.namespace}/${c.secret} on ${c.cluster}`,
  detail: { notAfter: c.notAfter },
});

const certificates: AuditDefinition = {
  name: "certificates",
  description: "TLS certificates that expire within a week, or did",
  groupBy: ["issuer", "state"],
  labels: ["cluster", "namespace", "secret", "issuer", "state"],
  presenter: definePresenter({
    tally: { label: "cluster", word: "clusters" },
    noun: () => "certificates",
    inspect: (f) =>
      `kubectl --context ${f.labels.cluster} -n ${f.labels.namespace} get secret ${f.labels.secret}`,
    chatNote: (f) => `issued by ${f.labels.issuer}`,
  }),
};

/** A stand-in source: whatever certificates it is given, read completely. */
class CertificateSource implements AuditSource {
  readonly filterable = false;
  readonly listedWhat = "certificates";
  certificates: Certificate[] = [];
  async read() {
    return {
      queries: [
        {
          query: "certificates",
          pages: 1,
          totalCount: this.certificates.length,
          listed: this.certificates.length,
        },
      ],
      listed: this.certificates.length,
      findings: this.certificates.map(certificate),
      leftOut: [],
      rescans: 0,
      complete: true,
      incompleteReason: null,
      incompleteCode: null,
    };
  }
}

const T0 = Date.UTC(2026, 11, 1, 8, 0);
const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();
const silence = (id: string, match: string[]): Silence => ({
  id,
  audit: "certificates",
  match: match.flatMap(parseMatchers),
  startsAt: at(-60),
  endsAt: at(600),
  createdBy: "test",
  comment: "planned rotation",
});

describe("a third audit, from a stand-in source and a presenter alone", () => {
  it("diffs, silences with each operator, tells, reports and resolves like the two it ships with", async () => {
    const source = new CertificateSource();
    const store = new MemoryAuditStore();
    const publisher = new MemoryPublisher();
    const reports = new MemoryReportStore();
    const silences = new MemorySilences([
      silence("eq", ["cluster=staging"]),
      silence("neq-and-re", ["issuer!=letsencrypt", "secret=~.*-internal"]),
      silence("not-re", ["namespace!~kube-.*|ingress", "issuer=letsencrypt", "state=expiring"]),
    ]);
    const deps: AuditRunDeps = {
      // Registered beside the audits it ships with, as a composition root would plug it in.
      ports: {
        audits: testAudits({ own: [{ audit: certificates, source: () => source }] }),
        store,
        publisher,
        reports,
        silences,
      },
    };
    const cert = (
      cluster: string,
      namespace: string,
      secret: string,
      issuer: string,
      state: Certificate["state"],
    ) => ({ cluster, namespace, secret, issuer, state, notAfter: at(-30) }) as Certificate;
    source.certificates = [
      cert("prod-1", "ingress", "wildcard", "letsencrypt", "expired"),
      cert("prod-2", "ingress", "wildcard", "letsencrypt", "expired"),
      cert("prod-1", "kube-system", "webhook", "letsencrypt", "expiring"),
      cert("staging", "ingress", "wildcard", "letsencrypt", "expired"), // silenced: =
      cert("prod-1", "payments", "db-internal", "vault", "expiring"), // silenced: != and =~
      cert("prod-2", "payments", "api", "letsencrypt", "expiring"), // silenced: !~ (with = twice)
    ];

    const first = await runAudit(withDeps(deps, { hooks: { clock: () => new Date(at(0)) } }), {
      audit: "certificates",
      scheduledTime: at(0),
    });
    expect(first.complete).toBe(true);
    const silencedBy = Object.fromEntries(first.transitions.map((t) => [t.instanceID, t.silencedBy ?? null]));
    expect(silencedBy).toEqual({
      "prod-1/ingress/wildcard": null,
      "prod-2/ingress/wildcard": null,
      "prod-1/kube-system/webhook": null,
      "staging/ingress/wildcard": "eq",
      "prod-1/payments/db-internal": "neq-and-re",
      "prod-2/payments/api": "not-re",
    });

    // The digest groups by issuer and state, tallies clusters, and reads as the presenter says.
    expect(publisher.published).toHaveLength(1);
    const body = JSON.parse(publisher.published[0]?.message ?? "{}") as {
      default: string;
      email: string;
      https: string;
    };
    const digest = DigestV1Schema.parse(JSON.parse(body.default)) as DigestV1;
    expect(digest.groups.map((g) => [g.key, g.count, g.plans])).toEqual([
      [
        "firing|expired|letsencrypt",
        2,
        [
          { plan: "prod-1", count: 1 },
          { plan: "prod-2", count: 1 },
        ],
      ],
      ["firing|expiring|letsencrypt", 1, [{ plan: "prod-1", count: 1 }]],
    ]);
    expect(digest.transitions.map((t) => t.labels?.secret).sort()).toEqual([
      "webhook",
      "wildcard",
      "wildcard",
    ]);
    expect(body.email).toContain("NEW (3)");
    expect(body.email).toContain("- [critical] expired: ingress/wildcard on prod-1, since");
    expect(body.email).toContain(
      "    cluster=prod-1, namespace=ingress, secret=wildcard, issuer=letsencrypt, state=expired",
    );
    expect(body.email).toContain("    inspect: kubectl --context prod-1 -n ingress get secret wildcard");
    expect(body.email).toContain("in letsencrypt; clusters prod-1 1, prod-2 1");
    const chatbot = JSON.parse(body.https) as { content: { nextSteps: string[] } };
    expect(chatbot.content.nextSteps).toContain(
      "Silence: `fleet-auditor silences add --audit certificates --match issuer=letsencrypt --match state=expired --for 4h --comment 'acknowledged: letsencrypt expired' --by \"$USER\"`",
    );
    // Onset is the source's: 30 minutes before the run.
    expect(digest.transitions[0]?.since).toBe(at(-30));

    // The report keeps every transition as the engine made it, labels and all.
    const report = await reports.loadReport(first.runId);
    expect(report?.transitions).toHaveLength(6);
    expect(report?.transitions.map((t) => t.finding.labels.secret).sort()).toEqual([
      "api",
      "db-internal",
      "webhook",
      "wildcard",
      "wildcard",
      "wildcard",
    ]);
    const [again] = reportDigests(report as NonNullable<typeof report>, {
      forChannels: true,
      groupBy: certificates.groupBy,
      presenter: certificates.presenter,
      reportCommand: `fleet-auditor runs show ${first.runId}`,
    });
    expect(JSON.parse(again?.message ?? "{}").email).toContain(
      "- [critical] expired: ingress/wildcard on prod-1",
    );

    // Slack renders it as the incidents topic carries it: each row as the audit's presenter said
    // it, so the Slack function needs no code of this audit's.
    const forSlack = DigestV1Schema.parse(JSON.parse(JSON.parse(again?.message ?? "{}").default));
    const slack = JSON.stringify(slackMessage(forSlack));
    expect(slack).toContain("issued by letsencrypt");
    expect(slack).toContain("kubectl --context prod-1 -n ingress get secret wildcard");
    expect(slack).toContain("clusters prod-1 1");

    // A renewed certificate resolves; one that expired meanwhile changes; nothing else is told.
    source.certificates = source.certificates
      .filter((c) => !(c.cluster === "prod-2" && c.secret === "wildcard"))
      .map((c) => (c.secret === "webhook" ? { ...c, state: "expired" as const } : c));
    const second = await runAudit(withDeps(deps, { hooks: { clock: () => new Date(at(10)) } }), {
      audit: "certificates",
      scheduledTime: at(10),
    });
    expect(second.transitions.map((t) => [t.kind, t.instanceID]).sort()).toEqual([
      ["changed", "prod-1/kube-system/webhook"],
      ["resolved", "prod-2/ingress/wildcard"],
    ]);
  });
});
