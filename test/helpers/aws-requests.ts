/** Counts the SDK commands a client sends, by name: real traffic, measured at the client. */
export function countRequests(client: {
  middlewareStack: { add: (...args: never[]) => void };
}): Map<string, number> {
  const counts = new Map<string, number>();
  const add = client.middlewareStack.add as unknown as (
    mw: (
      next: (args: unknown) => Promise<unknown>,
      context: { commandName?: string },
    ) => (args: unknown) => Promise<unknown>,
    options: { step: string; name: string },
  ) => void;
  add(
    (next, context) => async (args) => {
      const name = context.commandName ?? "unknown";
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: "initialize", name: `countRequests${Math.random()}` },
  );
  return counts;
}

/** The sum of the counts whose command name matches. */
export function sumOf(counts: Map<string, number>, pattern: RegExp): number {
  let n = 0;
  for (const [name, c] of counts) if (pattern.test(name)) n += c;
  return n;
}
