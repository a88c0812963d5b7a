import { FleetAuditorError } from "@fleet-auditor/errors";

/** Why a message body could not be understood; stable, and kept with a quarantined body. */
export type MetaserverErrorCode =
  | "MS_NOT_JSON"
  | "MS_ENVELOPE"
  | "MS_CONTENT"
  | "MS_APPLICATION"
  | "MS_BASE64"
  /** The header time lies further in the future of the message's receipt than clocks disagree. */
  | "MS_FUTURE_TIMESTAMP"
  /** The queue record itself is unusable (no string body). */
  | "MS_RECORD";

/** A body that can never be processed. The message is the quarantine reason. */
export class MetaserverParseError extends FleetAuditorError<MetaserverErrorCode> {
  constructor(code: MetaserverErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "MetaserverParseError";
  }
}
