import {
  type AuditDefinition,
  type InhibitRule,
  UnknownAuditError,
  withGroupBy,
  withInhibitRules,
} from "@fleet-auditor/audit";
import { ConfigError } from "./errors.ts";
import type { AuditSource } from "./ports.ts";

/**
 * An audit as the process that runs it registers it: its definition (name, labels, `groupBy`,
 * presenter) and how to read its findings. `source()` is asked once per run; a plug-in built
 * without what its source needs (a KEB client, the status table) throws `ConfigError` there,
 * naming the variable, so a process may register an audit it can only list or render.
 */
export interface AuditPlugin {
  readonly audit: AuditDefinition;
  source(): AuditSource;
}

/**
 * How the variables regroup the registered audits (`groupByEnvSchema`, `AlertingEnvSchema`) and
 * what they add to them (`inhibitRulesEnvSchema`).
 */
export interface AuditGrouping {
  /** `GROUP_BY_<AUDIT>`, by audit name: the labels that make one incident instead of its own. */
  groupBy?: ReadonlyMap<string, readonly string[]>;
  /** `INHIBIT_RULES_<AUDIT>`, by audit name: the stage's rules, after the audit's shipped ones. */
  inhibitRules?: ReadonlyMap<string, readonly InhibitRule[]>;
  /** Deprecated `per-runtime`: `GROUP_BY_<AUDIT>=instance` for audits whose findings have one. */
  NOTIFY_MODE?: "digest" | "per-runtime";
}

/**
 * The audits a process knows, by name, each grouped as its `GROUP_BY_<AUDIT>` says (else by
 * `instance` under the deprecated `NOTIFY_MODE=per-runtime`, for audits whose findings have one;
 * else by its own `groupBy`), with the stage's inhibition rules after its own
 * (`INHIBIT_RULES_<AUDIT>`). Built once where the process starts from the plug-ins it registers;
 * the use cases have no list of their own, so that a process loads only the audits it runs.
 *
 * @example
 * const audits = new AuditRegistry([...kebAudits({ client }), kubeedgeAudit({ statusStore })], env);
 * await runAudit({ ports: { audits, store, publisher } }, { audit: "failing" });
 */
export class AuditRegistry {
  readonly #plugins = new Map<string, AuditPlugin>();

  constructor(plugins: Iterable<AuditPlugin>, grouping: AuditGrouping = {}) {
    for (const plugin of plugins) {
      const { name } = plugin.audit;
      if (this.#plugins.has(name)) {
        throw new ConfigError([{ path: "audits", message: `two audits are named ${JSON.stringify(name)}` }]);
      }
      const perRuntime =
        grouping.NOTIFY_MODE === "per-runtime" && plugin.audit.labels.includes("instance")
          ? ["instance"]
          : undefined;
      const audit = withInhibitRules(
        withGroupBy(plugin.audit, grouping.groupBy?.get(name) ?? perRuntime),
        grouping.inhibitRules?.get(name),
      );
      this.#plugins.set(name, audit === plugin.audit ? plugin : { audit, source: () => plugin.source() });
    }
  }

  /** The registered audits' definitions, in the order they were registered. */
  get audits(): AuditDefinition[] {
    return [...this.#plugins.values()].map((p) => p.audit);
  }

  /** The registered audits' names, in the order they were registered. */
  get names(): string[] {
    return [...this.#plugins.keys()];
  }

  /** The audit named `name`; throws `UnknownAuditError` listing the known ones. */
  named(name: string): AuditPlugin {
    const plugin = this.#plugins.get(name);
    if (!plugin) throw new UnknownAuditError(name, this.names);
    return plugin;
  }

  /** The labels the findings of the audit named `name` carry (what silences may match). */
  labelsOf(name: string): readonly string[] {
    return this.named(name).audit.labels;
  }
}
