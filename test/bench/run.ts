// `npm run bench -- <name>… [--smoke]`: benchmarks that print their figures, ratios and bars,
// exiting non-zero when a bar is missed. `--smoke` runs each at the size `npm test` runs it
// (test/e2e/benchmarks.test.ts), where no bar is held: timings there say nothing.
import { benchApps } from "./apps.ts";
import { benchAudit } from "./audit.ts";
import { benchBundles } from "./bundles.ts";
import { benchCost } from "./cost.ts";
import { benchKeb } from "./keb.ts";
import type { BenchOptions } from "./kit.ts";
import { benchReport } from "./report.ts";

const benches: Record<string, (options: BenchOptions) => Promise<boolean>> = {
  keb: benchKeb,
  audit: benchAudit,
  apps: benchApps,
  bundle: () => benchBundles(),
  cost: benchCost,
  report: benchReport,
};
const args = process.argv.slice(2);
const smoke = args.includes("--smoke");
const names = args.filter((a) => a !== "--smoke");
if (names.length === 0 || names.some((n) => !Object.hasOwn(benches, n))) {
  process.stderr.write(`usage: npm run bench -- <${Object.keys(benches).join("|")}>... [--smoke]\n`);
  process.exit(1);
}
let ok = true;
for (const name of names)
  ok = (await (benches[name] as (o: BenchOptions) => Promise<boolean>)({ smoke })) && ok;
process.exitCode = ok ? 0 : 1;
