import {
  type AlertPolicy,
  type AlertPublisher,
  type AuditStateStore,
  type CommandStore,
  DEFAULT_POLICY,
  type Flapping,
  type LinkTemplates,
  type RunReportStore,
  type SilenceSource,
} from "@fleet-auditor/audit";
import type { AuditRegistry } from "./audit-registry.ts";
import type { RunLogger } from "./ports.ts";
import type { RouteSetting } from "./route-config.ts";

/** The adapters a run talks to; the composition root (function, CLI) builds them once. */
export interface AuditRunPorts {
  /**
   * The audits a run may be asked for by name, each with its source: the plug-ins the process
   * registered (`kebAudits`, `kubeedgeAudit`, or an audit of its own). No default: a default
   * would load every plug-in.
   */
  audits: AuditRegistry;
  store: AuditStateStore;
  publisher: AlertPublisher;
  silences?: SilenceSource;
  /** Where every transition of a run is kept; without it, messages can only tell what they name. */
  reports?: RunReportStore;
}

/** How a run behaves: plain values, from the parsed environment or the command line. */
export interface AuditRunSettings {
  /** Default `DEFAULT_POLICY`. */
  policy?: AlertPolicy;
  /** How long the audit's lease lasts; longer than a run can take. Default 15 min. */
  leaseMs?: number;
  /** Ledger items and run reports are kept this long. Default 30 days. */
  ledgerRetentionDays?: number;
  /** Incident records and their timelines are kept this long after their last event. Default 90 days. */
  incidentRetentionDays?: number;
  /**
   * When an incident that opens is flapping (posted in the thread of the episode before it): when
   * `after` episodes with its values opened and ended within `windowMs`. Default 3 in 24 h.
   */
  flapping?: Flapping;
  /**
   * Where the commands messages suggest (report, silence, inspect) act: this run's store, so that
   * each does what it says when pasted. Default the CLI's default store.
   */
  commandStore?: CommandStore;
  /** The landscape's name, in every subject and title. */
  landscape?: string;
  links?: LinkTemplates;
  /** Groups larger than this are one line in messages. Default 20 (the renderers'). */
  collapseAt?: number;
  /**
   * Besides the digest, one message per incident with news, routed to the
   * incidents topic; at most `maxNew` new incidents get one each, the rest one roll-up. Off
   * without an incidents topic (`INCIDENT_TOPIC_ARN`).
   */
  incidentMessages?: { maxNew: number };
  /**
   * Messages for the critical topic (the pager): one per incident that became critical or stopped
   * being critical in the run, never capped. Off without a critical topic (`CRITICAL_TOPIC_ARN`).
   */
  pagerMessages?: boolean;
  /**
   * The stage's routes (`RoutesSchema`): which findings each receiver hears, grouped how. Default
   * today's (`routesFor`): chat by the audit's incidents, the pager one page per audit episode.
   */
  routes?: readonly RouteSetting[];
  /** Consecutive incomplete or failed runs before one `degraded` notice. Default 3 (`nextHealth`). */
  degradedAfterRuns?: number;
  /** `now` and `scheduledTime` of a run that writes must be this close to the clock. Default 48 h. */
  maxClockSkewMs?: number;
  /**
   * What an audit's first scheduled run on a stage (no snapshot and no run in the ledger) does
   * with what is already flagged: `baseline` records it as told and sends one short notice
   * (`baselineNotice`), `notify` tells it as any run would. Default `notify`; a deployed stage
   * sets `FIRST_RUN` from its `firstRun` setting, `baseline` unless it says otherwise. An ad-hoc
   * run (no `scheduledTime`) is never a baseline; `notify: false` is the manual one.
   */
  firstRun?: "baseline" | "notify";
}

/** Where a run takes time and IDs from, and what it tells as it goes. */
export interface AuditRunHooks {
  /** Default the system clock. */
  clock?: () => Date;
  /** The run's ID. Default a random UUID. */
  newId?: () => string;
  log?: RunLogger;
}

/**
 * Everything a run needs, by kind: the adapters it talks to, the values it behaves by, and the
 * hooks tests and terminals replace. Only `ports` is required.
 *
 * @example
 * runAudit({ ports: { audits, store, publisher }, settings: { landscape: "prod-eu" } }, { audit: "failing" });
 */
export interface AuditRunDeps {
  ports: AuditRunPorts;
  settings?: AuditRunSettings;
  hooks?: AuditRunHooks;
}

const DEFAULT_LEASE_MS = 15 * 60_000;
// EventBridge Scheduler retries a delivery for up to 24 h: a late scheduled time is normal.
const DEFAULT_MAX_SKEW_MS = 48 * 3_600_000;
const DEFAULT_LEDGER_RETENTION_DAYS = 30;
/** How long incident records are kept when a stage says nothing: a summary may look back this far. */
export const DEFAULT_INCIDENT_RETENTION_DAYS = 90;
const DEFAULT_FLAPPING: Flapping = { windowMs: 24 * 3_600_000, after: 3 };

type Defaulted =
  | "policy"
  | "leaseMs"
  | "ledgerRetentionDays"
  | "incidentRetentionDays"
  | "flapping"
  | "maxClockSkewMs";

/**
 * A run's dependencies with the defaults the use cases own filled in. The defaults another module
 * owns (`collapseAt`, `degradedAfterRuns`; a plug-in's, such as KEB's concurrency) stay unset
 * here, so that each number has one home.
 */
export interface ResolvedDeps {
  ports: AuditRunPorts;
  settings: AuditRunSettings & Required<Pick<AuditRunSettings, Defaulted>>;
  hooks: AuditRunHooks & Required<Pick<AuditRunHooks, "clock" | "newId">>;
}

/** Fills in the use cases' defaults, once per run. */
export function withDefaults({ ports, settings = {}, hooks = {} }: AuditRunDeps): ResolvedDeps {
  return {
    ports,
    settings: {
      ...settings,
      policy: settings.policy ?? DEFAULT_POLICY,
      leaseMs: settings.leaseMs ?? DEFAULT_LEASE_MS,
      ledgerRetentionDays: settings.ledgerRetentionDays ?? DEFAULT_LEDGER_RETENTION_DAYS,
      incidentRetentionDays: settings.incidentRetentionDays ?? DEFAULT_INCIDENT_RETENTION_DAYS,
      flapping: settings.flapping ?? DEFAULT_FLAPPING,
      maxClockSkewMs: settings.maxClockSkewMs ?? DEFAULT_MAX_SKEW_MS,
    },
    hooks: {
      ...hooks,
      clock: hooks.clock ?? (() => new Date()),
      newId: hooks.newId ?? (() => crypto.randomUUID()),
    },
  };
}
