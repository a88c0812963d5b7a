import { readdirSync, readFileSync } from "node:fs";
import { parseRunInput } from "@fleet-auditor/runner";
import { describe, expect, it } from "vitest";

const dir = new URL("../../events/", import.meta.url);

describe("console test events in events/", () => {
  it.each(readdirSync(dir).filter((f) => f.endsWith(".json")))("%s is a valid audit input", (file) => {
    expect(() => parseRunInput(JSON.parse(readFileSync(new URL(file, dir), "utf8")))).not.toThrow();
  });
});
