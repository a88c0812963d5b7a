import type { ApplicationStatusStore, EdgeThresholds } from "@fleet-auditor/metaserver";
import { type AuditPlugin, ConfigError, type RunLogger } from "@fleet-auditor/use-cases";
import { applicationsAudit } from "./edge-audit.ts";
import { StatusTableSource } from "./status-table-source.ts";

/** What the applications audit reads with. */
export interface KubeedgeAuditOptions {
  /** The Application status table; without it, asking for the source throws `ConfigError`. */
  statusStore?: ApplicationStatusStore;
  /** When an Application is stuck and a node refusing. Default `DEFAULT_EDGE_THRESHOLDS`. */
  thresholds?: EdgeThresholds;
  log?: RunLogger;
}

/**
 * The KubeEdge applications audit (`applications`) as a plug-in, reading the Application status
 * table through `StatusTableSource`. A process that only lists or renders it needs no table:
 * only `source()` asks for one, and fails naming `STATUS_TABLE`.
 *
 * @example
 * const audits = new AuditRegistry([kubeedgeAudit({ statusStore, thresholds: thresholdsFrom(env) })], env);
 */
export function kubeedgeAudit(options: KubeedgeAuditOptions = {}): AuditPlugin {
  return {
    audit: applicationsAudit,
    source() {
      const { statusStore } = options;
      if (!statusStore) {
        throw new ConfigError([
          {
            path: "STATUS_TABLE",
            message: `the ${applicationsAudit.name} audit reads the Application status table; set it`,
          },
        ]);
      }
      return new StatusTableSource({
        statusStore,
        ...(options.thresholds ? { thresholds: options.thresholds } : {}),
        ...(options.log ? { log: options.log } : {}),
      });
    },
  };
}
