import { fillTemplate } from "@fleet-auditor/audit";
import { describe, expect, it } from "vitest";

// A warm process renders thousands of links; the optimiser then takes fast paths that a cold
// one does not. A link template with an IDN host must give its link in either.

describe("link templates in a warm process", () => {
  it("fill an IDN host after many ASCII links, as in the first", () => {
    const idn = () => fillTemplate("https://bücher.example/runs/{runId}", { runId: "run-1" });
    expect(idn()).toBe("https://xn--bcher-kva.example/runs/run-1");
    for (let i = 0; i < 200_000; i++)
      fillTemplate("https://console.example/runs/{runId}", { runId: `r${i}` });
    expect(idn()).toBe("https://xn--bcher-kva.example/runs/run-1");
  });
});
