// What an edge finding holds beyond its labels: read by the edge presenter alone.

/** What an edge finding is about, beyond its labels. */
export interface EdgeDetail {
  what: "stuck" | "refused" | "quarantined";
  node: string;
  /** The Application's key, e.g. `/core/v1/services/null/null` (stuck), or the most refused key. */
  key: string;
  verb: string;
  resource: string;
  /** stuck: the Application's status (InApplying…). */
  status?: string;
  /** stuck: its latest message's time; refused: the first refusal in the window (ISO). */
  since?: string;
  /** refused: the Kubernetes Status code and reason (`403 Forbidden`); quarantined: the code; stuck: "". */
  reason: string;
  /** refused: the Kubernetes Status code (403), 0 without one. */
  code?: number;
  /** refused, quarantined: how many in the window. */
  count?: number;
  /** refused: the `verb resource` pairs refused, most frequent first. */
  requests?: string[];
}
