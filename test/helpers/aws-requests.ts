type SdkClient = { middlewareStack: { add: (...args: never[]) => void } };
type Around = (
  next: (args: unknown) => Promise<unknown>,
  command: string,
) => (args: unknown) => Promise<unknown>;

/** Wraps every command a client sends (initialize step), as a test's own middleware. */
function around(client: SdkClient, name: string, wrap: Around): void {
  const add = client.middlewareStack.add as unknown as (
    mw: (
      next: (args: unknown) => Promise<unknown>,
      context: { commandName?: string },
    ) => (args: unknown) => Promise<unknown>,
    options: { step: string; name: string },
  ) => void;
  add((next, context) => wrap(next, context.commandName ?? "unknown"), {
    step: "initialize",
    name: `${name}${Math.random()}`,
  });
}

/** Counts the SDK commands a client sends, by name: real traffic, measured at the client. */
export function countRequests(client: SdkClient): Map<string, number> {
  const counts = new Map<string, number>();
  around(client, "countRequests", (next, name) => async (args) => {
    counts.set(name, (counts.get(name) ?? 0) + 1);
    return next(args);
  });
  return counts;
}

/** The most requests of one command a client had in flight at once, from now on. */
export function inFlight(client: SdkClient, command: string): { now: number; max: number } {
  const seen = { now: 0, max: 0 };
  around(client, "inFlight", (next, name) => async (args) => {
    if (name !== command) return next(args);
    seen.max = Math.max(seen.max, ++seen.now);
    try {
      return await next(args);
    } finally {
      seen.now--;
    }
  });
  return seen;
}

/** The sum of the counts whose command name matches. */
export function sumOf(counts: Map<string, number>, pattern: RegExp): number {
  let n = 0;
  for (const [name, c] of counts) if (pattern.test(name)) n += c;
  return n;
}
