// `npm run bench -- <name>`: benchmarks that print their figures and ratios. Not part of npm test.
import { benchApps } from "./apps.ts";
import { benchAudit } from "./audit.ts";
import { benchBundles } from "./bundles.ts";
import { benchKeb } from "./keb.ts";

const benches: Record<string, () => Promise<boolean>> = {
  keb: benchKeb,
  audit: benchAudit,
  apps: benchApps,
  bundle: benchBundles,
};
const names = process.argv.slice(2);
if (names.length === 0 || names.some((n) => !benches[n])) {
  process.stderr.write(`usage: npm run bench -- <${Object.keys(benches).join("|")}>\n`);
  process.exit(1);
}
let ok = true;
for (const name of names) ok = (await (benches[name] as () => Promise<boolean>)()) && ok;
process.exitCode = ok ? 0 : 1;
