import { gunzipSync, gzipSync } from "node:zlib";
import {
  type Finding,
  type KeyPrint,
  keyPrintOf,
  type SnapshotEntry,
  type SnapshotFingerprint,
} from "@fleet-auditor/audit";

/**
 * The most a fingerprint may take, gzipped: it rides in the snapshot's version item, and items are
 * capped at 400 KB. About 10,000 entries fit (some 30 bytes each); a larger snapshot keeps none,
 * and every new store reads it whole, as before fingerprints.
 */
const FINGERPRINT_MAX_BYTES = 350_000;

/** The fingerprint of a whole snapshot, each entry's problem judged by `problemKey`. */
export function fingerprintOf(
  entries: ReadonlyMap<string, SnapshotEntry>,
  problemKey: (f: Finding) => string,
): SnapshotFingerprint {
  const print = new Map<string, KeyPrint>();
  for (const [key, entry] of entries) print.set(key, keyPrintOf(entry, problemKey));
  return print;
}

/** Column by column: keys, problems, told times and clear runs compress better apart. */
interface Columns {
  k: string[];
  p: string[];
  n: Array<number | null>;
  c: number[];
  /** `1` firing, `0` pending, one character per key. */
  f: string;
  /** The routes besides the default each is on (`KeyPrint.routes`); absent when none is. */
  r?: string[];
}

/** The fingerprint as gzipped JSON, or undefined when it is over `FINGERPRINT_MAX_BYTES`. */
export function encodeFingerprint(print: SnapshotFingerprint): Uint8Array | undefined {
  const cols: Columns = { k: [], p: [], n: [], c: [], f: "" };
  const firing: string[] = [];
  const routes: string[] = [];
  for (const [key, kp] of print) {
    routes.push(kp.routes);
    cols.k.push(key);
    cols.p.push(kp.problem);
    cols.n.push(kp.notifiedAt);
    cols.c.push(kp.clearRuns);
    firing.push(kp.firing ? "1" : "0");
  }
  cols.f = firing.join("");
  if (routes.some(Boolean)) cols.r = routes;
  const bytes = gzipSync(JSON.stringify(cols));
  return bytes.byteLength > FINGERPRINT_MAX_BYTES ? undefined : bytes;
}

/**
 * A stored fingerprint, or undefined when it cannot be read as one: the caller then reads the
 * snapshot whole. Never a throw: a damaged fingerprint costs a read, never a run.
 */
export function decodeFingerprint(bytes: Uint8Array): SnapshotFingerprint | undefined {
  try {
    const cols = JSON.parse(gunzipSync(bytes).toString("utf8")) as Columns;
    const n = cols.k.length;
    const sizes = [cols.p.length, cols.n.length, cols.c.length, cols.f.length, cols.r?.length ?? n];
    if (sizes.some((size) => size !== n)) {
      return undefined;
    }
    const print = new Map<string, KeyPrint>();
    for (let i = 0; i < n; i++) {
      print.set(cols.k[i] as string, {
        firing: cols.f[i] === "1",
        problem: cols.p[i] as string,
        notifiedAt: cols.n[i] ?? null,
        clearRuns: cols.c[i] as number,
        routes: cols.r?.[i] ?? "",
      });
    }
    return print;
  } catch {
    return undefined;
  }
}
