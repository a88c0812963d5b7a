import { FleetAuditorError } from "@fleet-auditor/errors";

/** Stable codes of the simulator's errors. */
type SimErrorCode = "SIM_BAD_QUERY";

/** Base of the simulator's errors. */
class SimError extends FleetAuditorError<SimErrorCode> {
  constructor(code: SimErrorCode, message: string) {
    super(code, message);
    this.name = "SimError";
  }
}

/** A query KEB answers with 400, worded as KEB words it: `{"error":"while getting query parameters: …"}`. */
export class BadQueryError extends SimError {
  constructor(message: string) {
    super("SIM_BAD_QUERY", message);
    this.name = "BadQueryError";
  }
}
