// A DynamoDB-compatible server (dynalite, in memory) in its own process: real DynamoDB is remote,
// so a benchmark should not run it on the client's event loop. Arguments are audit tables, or
// `status:NAME` for an Application status table. Prints {"endpoint": …}.
import { startEmbeddedDynamo } from "@fleet-auditor/store";

const args = process.argv.slice(2);
const db = await startEmbeddedDynamo({
  tables: args.filter((a) => !a.startsWith("status:")),
  statusTables: args.filter((a) => a.startsWith("status:")).map((a) => a.slice("status:".length)),
});
process.stdout.write(`${JSON.stringify({ endpoint: db.endpoint })}\n`);
process.stdin.resume();
process.stdin.on("end", () => void db.close().then(() => process.exit(0)));
