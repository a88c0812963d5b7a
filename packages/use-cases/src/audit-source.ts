import type { AuditDefinition } from "@fleet-auditor/audit";
import type { RuntimeSource } from "@fleet-auditor/keb";
import { ConfigError } from "./errors.ts";
import { KebSource } from "./keb-source.ts";
import type { AuditSource, RunLogger } from "./ports.ts";

/** The adapters a run's sources are made of, from its dependencies. */
export interface SourceDeps {
  /** KEB, for the KEB audits. */
  source?: RuntimeSource;
  /**
   * The applications audit's source (`StatusTableSource`), built by the composition root that
   * runs it: a function that runs only KEB audits does not load the edge's code.
   */
  statusSource?: AuditSource;
  /** Sources of audits that bring their own (`source: "own"`), by audit name. */
  ownSources?: ReadonlyMap<string, AuditSource>;
  concurrency?: number;
  log?: RunLogger;
  onProgress?: (done: number, total: number) => void;
}

/**
 * The one place that maps an audit definition to its source adapter; throws `ConfigError` naming
 * the variable when the adapter it needs was not given.
 */
export function sourceFor(audit: AuditDefinition, deps: SourceDeps): AuditSource {
  if (audit.source === "own") {
    const own = deps.ownSources?.get(audit.name);
    if (!own)
      throw new ConfigError([{ path: "audits", message: `the ${audit.name} audit has no source given` }]);
    return own;
  }
  if (audit.source === "status-table") {
    if (!deps.statusSource) {
      throw new ConfigError([
        {
          path: "STATUS_TABLE",
          message: `the ${audit.name} audit reads the Application status table; set it`,
        },
      ]);
    }
    return deps.statusSource;
  }
  if (!deps.source) {
    throw new ConfigError([
      { path: "KEB_URL", message: `the ${audit.name} audit reads KEB; set its connection` },
    ]);
  }
  return new KebSource({
    client: deps.source,
    audit,
    ...(deps.concurrency !== undefined ? { concurrency: deps.concurrency } : {}),
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.onProgress ? { onProgress: deps.onProgress } : {}),
  });
}
