// A DynamoDB-compatible server (dynalite, in memory) in its own process: real DynamoDB is remote,
// so a benchmark should not run it on the client's event loop. Prints {"endpoint": …}.
import { startEmbeddedDynamo } from "@fleet-auditor/store";

const tables = process.argv.slice(2);
const db = await startEmbeddedDynamo({ tables });
process.stdout.write(`${JSON.stringify({ endpoint: db.endpoint })}\n`);
process.stdin.resume();
process.stdin.on("end", () => void db.close().then(() => process.exit(0)));
