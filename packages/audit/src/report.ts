import type { Transition } from "./snapshot.ts";
import type { RunSummary } from "./summary.ts";

/**
 * Every transition of one run, however many, each as the engine made it (its finding, labels and
 * detail, the finding before a change, how it ended): what messages point to when they count
 * instead of naming. Found by run ID. `summary` is the run summary without its transition list.
 */
export interface RunReport {
  runId: string;
  audit: string;
  runKey: string;
  scheduledTime: string | null;
  startedAt: string;
  landscape?: string;
  summary: Omit<RunSummary, "transitions">;
  transitions: Transition[];
}
