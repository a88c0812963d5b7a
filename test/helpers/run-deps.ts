import type { AuditRunDeps, AuditRunHooks, AuditRunPorts, AuditRunSettings } from "@fleet-auditor/use-cases";

/** What a test changes in a run's dependencies, part by part. */
interface DepsChange {
  ports?: Partial<AuditRunPorts>;
  settings?: AuditRunSettings;
  hooks?: AuditRunHooks;
}

/**
 * `deps` with `change` merged into each part rather than replacing it, so that a test names only
 * what differs: `withDeps(deps, { hooks: { clock } })` keeps every port and setting.
 */
export function withDeps(deps: AuditRunDeps, change: DepsChange): AuditRunDeps {
  return {
    ports: { ...deps.ports, ...change.ports },
    settings: { ...deps.settings, ...change.settings },
    hooks: { ...deps.hooks, ...change.hooks },
  };
}
