import { spawnSync } from "node:child_process";

/**
 * What every benchmark shares: its size (the issue's parameters, or a smoke size that `npm test`
 * runs in seconds so that no benchmark can rot), where it prints, and its bars.
 */
export interface BenchOptions {
  /** A few seconds' worth: the code paths and the printed figures, not figures worth reading. */
  smoke?: boolean;
  /** Where each line goes. Default: stdout. */
  say?: (line: string) => void;
  /** A DynamoDB Local already running, to use instead of launching one. */
  dynamoLocal?: { endpoint: string };
}

/** The middle value (the upper one of an even count); NaN for none. */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

export const fmt = (n: number, digits = 1): string => n.toFixed(digits);

/** Each round's times, rounded, for the reader to see the spread behind a median. */
export const spread = (xs: readonly number[]): string => xs.map((x) => x.toFixed(0)).join(", ");

/**
 * Prints lines and keeps the verdict of the bars: `bar(…)` returns `PASS` or `FAIL` for the line
 * and remembers a failure, so that `npm run bench` can exit non-zero.
 */
export class Report {
  ok = true;
  readonly say: (line: string) => void;

  constructor(options: BenchOptions) {
    this.say = options.say ?? ((line) => void process.stdout.write(`${line}\n`));
  }

  /** `(bar <= 1.25) PASS`, and the verdict remembered. */
  bar(value: number, op: "<=" | ">=" | "<" | "=", limit: number, shown = `${limit}`): string {
    const pass =
      op === "<="
        ? value <= limit
        : op === ">="
          ? value >= limit
          : op === "<"
            ? value < limit
            : value === limit;
    this.ok &&= pass;
    return `(bar ${op === "=" ? "" : `${op} `}${shown}) ${pass ? "PASS" : "FAIL"}`;
  }
}

/** Whether DynamoDB Local can start here: it runs on the machine's Java. */
export async function javaPresent(): Promise<boolean> {
  return spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;
}
