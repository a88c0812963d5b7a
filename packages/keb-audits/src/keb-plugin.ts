import type { RuntimeSource } from "@fleet-auditor/keb";
import { type AuditPlugin, ConfigError, type RunLogger } from "@fleet-auditor/use-cases";
import { KEB_AUDITS } from "./keb-audits.ts";
import { KebSource } from "./keb-source.ts";

/** What the KEB audits read with. */
export interface KebAuditsOptions {
  /** KEB (`kebClientFrom`); without it, asking an audit for its source throws `ConfigError`. */
  client?: RuntimeSource;
  /** KEB requests in flight. Default 4. */
  concurrency?: number;
  log?: RunLogger;
  /** KEB pages read so far, of those known (a terminal's progress line). */
  onProgress?: (done: number, total: number) => void;
}

/**
 * The KEB audits (`failing`, `expired`) as plug-ins, each reading KEB through its own
 * `KebSource`. A process that only lists or renders them (the CLI's label checks, the Slack
 * function) needs no client: only `source()` asks for one, and fails naming `KEB_URL`.
 *
 * @example
 * const audits = new AuditRegistry([...kebAudits({ client, concurrency: 4, log })], env);
 */
export function kebAudits(options: KebAuditsOptions = {}): AuditPlugin[] {
  return KEB_AUDITS.map((audit) => ({
    audit,
    source() {
      if (!options.client) {
        throw new ConfigError([
          { path: "KEB_URL", message: `the ${audit.name} audit reads KEB; set its connection` },
        ]);
      }
      return new KebSource({
        client: options.client,
        audit,
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        ...(options.log ? { log: options.log } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      });
    },
  }));
}
