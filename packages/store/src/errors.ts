import { FleetAuditorError } from "@fleet-auditor/errors";

/** Stable codes of the store's errors. */
type StoreErrorCode =
  | "STORE_UNPROCESSED"
  | "STORE_LEASE_LOST"
  | "STORE_REPORT_INCOMPLETE"
  | "STORE_STATE_DIR_IN_USE"
  | "STORE_STATE_DIR_DAMAGED"
  | "STORE_TABLE_MISSING"
  | "STORE_REFUSED";

/** Base of the store's errors. */
class StoreError extends FleetAuditorError<StoreErrorCode> {
  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "StoreError";
  }
}

/** BatchWriteItem or BatchGetItem kept returning unprocessed items or keys after every retry. */
export class UnprocessedItemsError extends StoreError {
  readonly remaining: number;
  constructor(remaining: number) {
    super("STORE_UNPROCESSED", `${remaining} item(s) still unprocessed after retries (throttling?)`);
    this.name = "UnprocessedItemsError";
    this.remaining = remaining;
  }
}

/** The run lost its lease (it outlived it and another run took over); it committed nothing. */
export class LeaseLostError extends StoreError {
  constructor(audit: string, owner: string) {
    super(
      "STORE_LEASE_LOST",
      `run ${owner} no longer holds the lease of audit ${audit}; its changes were not committed`,
    );
    this.name = "LeaseLostError";
  }
}

/** A run report's head promises more transitions than its parts hold (a part expired or was lost). */
export class ReportIncompleteError extends StoreError {
  readonly runId: string;
  constructor(runId: string, expected: number, found: number, parts: number) {
    super(
      "STORE_REPORT_INCOMPLETE",
      `the report of run ${runId} holds ${found} of its ${expected} transitions (${parts} parts expected)`,
    );
    this.name = "ReportIncompleteError";
    this.runId = runId;
  }
}

/**
 * Another process has the embedded store's directory: the one the directory lock names (`pid`),
 * or, without one, a process that has the store's LevelDB files locked (a program that knows
 * nothing of the directory lock, or a process on another host sharing the directory). Never
 * "damaged": moving a store aside that is only in use would make every alert fire again.
 */
export class StateDirInUseError extends StoreError {
  readonly pid: number | undefined;
  constructor(dir: string, pid?: number, options?: { cause?: unknown }) {
    super(
      "STORE_STATE_DIR_IN_USE",
      pid === undefined
        ? `the embedded store in ${dir} is in use by another process (another fleet-auditor command, or a program such as dynalite that has its files open, maybe on another host); wait for it to finish or stop it, or use another --state-dir. The store is not damaged: leave it where it is (started empty, every alert would fire again)`
        : `the state directory ${dir} is in use by process ${pid} (another fleet-auditor command?); wait for it, or use another --state-dir`,
      options,
    );
    this.name = "StateDirInUseError";
    this.pid = pid;
  }
}

/** The embedded store's files exist but cannot be opened: starting empty would fire every alert again. */
export class StateDirDamagedError extends StoreError {
  constructor(dir: string, cause: unknown) {
    super(
      "STORE_STATE_DIR_DAMAGED",
      `the embedded store in ${dir} cannot be opened (${(cause as Error).message}); restore it, or move it aside to start empty (every alert then fires again)`,
      { cause },
    );
    this.name = "StateDirDamagedError";
  }
}

/** A DynamoDB table the configuration names does not exist (or is not active) where the client looks. */
export class TableMissingError extends StoreError {
  readonly tableName: string;
  constructor(tableName: string, where: string, options?: { cause?: unknown }) {
    super(
      "STORE_TABLE_MISSING",
      `DynamoDB table ${tableName} does not exist or is not active in ${where}: check the table name in the configuration and the region or endpoint`,
      options,
    );
    this.name = "TableMissingError";
    this.tableName = tableName;
  }
}

/**
 * DynamoDB refused a status write for good (the item or a key over its limits, a request it cannot
 * read): no retry can cure it. `code` and `message` are what a quarantine keeps of its records;
 * `cause` is DynamoDB's error.
 */
export class WriteRefusedError extends StoreError {
  readonly applicationId: string;
  constructor(applicationId: string, cause: unknown) {
    const id = applicationId.length > 80 ? `${applicationId.slice(0, 80)}…` : applicationId;
    const { name, message } = cause as Error;
    super("STORE_REFUSED", `DynamoDB refused the write of Application ${id} for good: ${name}: ${message}`, {
      cause,
    });
    this.name = "WriteRefusedError";
    this.applicationId = applicationId;
  }
}
