import type { AuditDefinition } from "@fleet-auditor/audit";
import type { RuntimeSource } from "@fleet-auditor/keb";
import { KEB_AUDITS, kebAudits } from "@fleet-auditor/keb-audits";
import { applicationsAudit, kubeedgeAudit } from "@fleet-auditor/kubeedge-audit";
import type { ApplicationStatusStore, EdgeThresholds } from "@fleet-auditor/metaserver";
import {
  type AuditGrouping,
  type AuditPlugin,
  AuditRegistry,
  type RunLogger,
} from "@fleet-auditor/use-cases";

/** What a test's audits read with; each left out makes its audits' `source()` fail as deployed. */
export interface TestAuditsOptions {
  /** KEB, for `failing` and `expired`. */
  client?: RuntimeSource;
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  /** The Application status table, for `applications`. */
  statusStore?: ApplicationStatusStore;
  thresholds?: EdgeThresholds;
  log?: RunLogger;
  grouping?: AuditGrouping;
  /** Audits of the test's own, registered after the shipped ones. */
  own?: readonly AuditPlugin[];
}

/**
 * The shipped audits registered as the functions register them, so that a test says
 * `ports: { audits: testAudits({ client }), store, publisher }`.
 */
export function testAudits(o: TestAuditsOptions = {}): AuditRegistry {
  const log = o.log ? { log: o.log } : {};
  return new AuditRegistry(
    [
      ...kebAudits({
        ...(o.client ? { client: o.client } : {}),
        ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
        ...(o.onProgress ? { onProgress: o.onProgress } : {}),
        ...log,
      }),
      kubeedgeAudit({
        ...(o.statusStore ? { statusStore: o.statusStore } : {}),
        ...(o.thresholds ? { thresholds: o.thresholds } : {}),
        ...log,
      }),
      ...(o.own ?? []),
    ],
    o.grouping,
  );
}

/** The shipped audits' definitions, as the Slack function renders their digests with. */
export const SHIPPED_AUDITS: readonly AuditDefinition[] = [...KEB_AUDITS, applicationsAudit];
