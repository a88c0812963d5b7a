import { describe, expect, it } from "vitest";
import { useKebSimulator } from "../../helpers/keb.ts";

const kit = useKebSimulator({ fleet: { size: 120, seed: 21 } });

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${kit.sim.url}${path}`, { method: "POST", body: JSON.stringify(body) });
}

describe("the simulator's admin routes", () => {
  it("mutates the fleet over HTTP and reports the changes", async () => {
    const res = await post("/__sim/mutate", { fail: 2, create: 3 });
    const { changes } = (await res.json()) as { changes: Array<{ kind: string }> };
    expect(changes.map((c) => c.kind).sort()).toEqual(["create", "create", "create", "fail", "fail"]);
    const stats = (await (await fetch(`${kit.sim.url}/__sim/stats`)).json()) as { size: number };
    expect(stats.size).toBe(123);
  });

  it("takes fault rules over HTTP and clears them", async () => {
    expect(
      (await post("/__sim/faults", [{ action: { kind: "status", status: 502, body: "bad gateway" } }]))
        .status,
    ).toBe(204);
    expect(await kit.raw("/runtimes")).toMatchObject({ status: 502, text: "bad gateway" });
    await post("/__sim/faults", [{ action: { kind: "status", status: 503 }, times: 5 }]);
    await fetch(`${kit.sim.url}/__sim/faults`, { method: "DELETE" });
    expect((await kit.raw("/runtimes")).status).toBe(200);
  });
});
