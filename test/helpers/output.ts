import { vi } from "vitest";

/**
 * Everything the process writes to stdout and stderr from now on (a function's Powertools logs),
 * kept instead of printed until the test's mocks are restored (`restoreMocks`).
 */
export function captureOutput(): string[] {
  const lines: string[] = [];
  const capture = (chunk: unknown): boolean => {
    lines.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, "write").mockImplementation(capture);
  vi.spyOn(process.stderr, "write").mockImplementation(capture);
  return lines;
}
