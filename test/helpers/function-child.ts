// Runs one Lambda handler in its own process, as a Lambda instance would, so that a test can
// kill it mid-run: `node function-child.ts <module URL> <event JSON>`; the result on file
// descriptor 3, so that stdout carries only what the function logs.
import { writeSync } from "node:fs";
import { fakeContext } from "./lambda.ts";

const [moduleUrl, eventJson] = process.argv.slice(2);
const { handler } = (await import(moduleUrl as string)) as {
  handler: (event: unknown, context: unknown) => Promise<unknown>;
};
try {
  const result = await handler(JSON.parse(eventJson as string), fakeContext());
  writeSync(3, JSON.stringify(result));
} catch (err) {
  writeSync(3, JSON.stringify({ error: (err as Error).message }));
  process.exitCode = 1;
}
