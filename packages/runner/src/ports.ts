import type { SlackMessage } from "@fleet-auditor/audit";

/** The minimal logger the use cases write to (Powertools Logger fits). */
export interface RunLogger {
  info(message: string, ...extra: Array<Record<string, unknown>>): void;
  warn(message: string, ...extra: Array<Record<string, unknown>>): void;
}

/** Posts one Slack message or throws; `deadline` (epoch ms) bounds every retry and wait. */
export interface SlackPoster {
  post(message: SlackMessage, deadline: number): Promise<void>;
}
