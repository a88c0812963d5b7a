// Lists every runtime of a simulator with op_detail=last in a fresh process and prints its peak RSS.
// Mode `stream` does what an audit does: classify each page as it arrives and keep only the
// flagged runtimes' essentials. Mode `retain` keeps every parsed runtime.
import {
  displayedState,
  KebClient,
  KebTransport,
  type Runtime,
  StaticTokenProvider,
  scanRuntimes,
} from "@fleet-auditor/keb";

const [url, mode = "stream"] = process.argv.slice(2) as [string, string?];
const FLAGGED = new Set(["failed", "error", "deprovisionincomplete"]);
const transport = new KebTransport();
const client = new KebClient({ baseUrl: url, transport, tokenProvider: new StaticTokenProvider("bench") });
const flagged: Array<{ instanceID: string; state: string; expired: boolean }> = [];
const classify = (runtimes: Runtime[]): void => {
  for (const r of runtimes) {
    const state = r.status.state || displayedState(r.status);
    if (FLAGGED.has(state) || r.status.expiredAt)
      flagged.push({ instanceID: r.instanceID, state, expired: !!r.status.expiredAt });
  }
};
const started = performance.now();
const result = await scanRuntimes(
  client,
  { states: ["all"] },
  mode === "stream" ? { retain: false, onPage: classify } : { retain: true },
);
if (!result.complete) throw new Error(`incomplete: ${result.incompleteReason}`);
const ms = performance.now() - started;
// maxRSS is in KiB.
const peakRssMb = process.resourceUsage().maxRSS / 1024;
const kept = mode === "stream" ? flagged.length : result.runtimes.length;
process.stdout.write(
  `${JSON.stringify({ mode, listed: result.listed, kept, pages: result.pages, ms, peakRssMb })}\n`,
);
