import {
  ClientCredentialsTokenProvider,
  createKebDispatcher,
  KebClient,
  type RuntimeFilters,
  scanAll,
} from "@fleet-auditor/keb";
import { startKebSimulator } from "@fleet-auditor/keb-sim";
import { RUNTIME_HEADERS, runtimeRow } from "./runtime-rows.ts";
import { renderTable } from "./table.ts";

/** The queries that find failing runtimes; `deprovisionincomplete` needs its own (KEB ANDs it). */
const FAILING: RuntimeFilters[] = [{ states: ["failed", "error"] }, { states: ["deprovisionincomplete"] }];

/**
 * `npm start`: a simulated KEB with a seeded fleet behind a token issuer, listed through the real
 * client, failing runtimes printed as a table. No network, no AWS.
 */
export async function runDemo(out: NodeJS.WritableStream = process.stdout): Promise<void> {
  const sim = await startKebSimulator({
    fleet: { size: 2000, seed: 42 },
    latencyMs: 5,
    auth: { clients: [{ id: "fleet-auditor", secret: "demo-secret", groups: ["runtimeViewer"] }] },
  });
  const dispatcher = createKebDispatcher();
  try {
    const client = new KebClient({
      baseUrl: sim.url,
      dispatcher,
      tokenProvider: new ClientCredentialsTokenProvider({
        tokenUrl: sim.tokenUrl,
        clientId: "fleet-auditor",
        clientSecret: "demo-secret",
        dispatcher,
      }),
    });
    const started = performance.now();
    const scans = await scanAll(client, FAILING);
    const ms = Math.round(performance.now() - started);
    const runtimes = scans.flatMap((s) => s.runtimes);
    out.write(`KEB simulator at ${sim.url} with ${sim.fleet.size} runtimes (seed 42)\n`);
    for (const s of scans) {
      out.write(
        `  ${s.query}: ${s.listed} of ${s.totalCount} in ${s.pages} page(s), ${s.complete ? "complete" : `INCOMPLETE: ${s.incompleteReason}`}\n`,
      );
    }
    out.write(`Listed in ${ms} ms; failing runtimes:\n\n`);
    out.write(`${renderTable(RUNTIME_HEADERS, runtimes.map(runtimeRow))}\n`);
  } finally {
    await dispatcher.close();
    await sim.close();
  }
}
