import { type ListParameters, type RuntimeSource, type RuntimesPage, scanRuntimes } from "@fleet-auditor/keb";
import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { describe, expect, it } from "vitest";
import { FleetSource } from "../../helpers/memory-ports.ts";

// A page must hold min(page size, totalCount - offset) rows and the pages must add up to
// totalCount; a KEB that serves fewer rows, or lies about totalCount, gives an incomplete scan
// (otherwise the rows it did not serve would resolve).

/** The simulator's answers, rewritten by `lie` before the pager sees them. */
function lyingSource(
  size: number,
  lie: (page: RuntimesPage, params: ListParameters) => RuntimesPage,
): RuntimeSource {
  const honest = new FleetSource(new Fleet(generateFleet({ size, seed: 3, flagged: 0 })));
  return { listPage: async (params) => lie(await honest.listPage(params), params) };
}

describe("scanRuntimes: rows owed by KEB", () => {
  it("is complete when every page holds what it owes", async () => {
    const scan = await scanRuntimes(
      lyingSource(150, (p) => p),
      { states: ["all"] },
    );
    expect(scan).toMatchObject({ complete: true, listed: 150, pages: 2 });
  });

  it("is incomplete when page 1 is short (2 rows of 150)", async () => {
    const scan = await scanRuntimes(
      lyingSource(150, (p, q) => (q.page === 1 ? { ...p, data: p.data.slice(0, 2), count: 2 } : p)),
      { states: ["all"] },
    );
    expect(scan.complete).toBe(false);
    expect(scan.incompleteReason).toBe("page 1 held 2 runtimes, expected 100");
  });

  it("is incomplete when a middle page is short (50 of 100)", async () => {
    const scan = await scanRuntimes(
      lyingSource(250, (p, q) => (q.page === 2 ? { ...p, data: p.data.slice(0, 50), count: 50 } : p)),
      { states: ["all"] },
    );
    expect(scan.complete).toBe(false);
    expect(scan.incompleteReason).toBe("page 2 held 50 runtimes, expected 100");
  });

  it("is incomplete when totalCount is 0 but the page holds rows", async () => {
    const scan = await scanRuntimes(
      lyingSource(100, (p) => ({ ...p, totalCount: 0 })),
      { states: ["all"] },
    );
    expect(scan.complete).toBe(false);
    expect(scan.incompleteReason).toBe("page 1 held 100 runtimes, expected 0");
  });

  it("is incomplete when totalCount understates the rows (a page too many)", async () => {
    const scan = await scanRuntimes(
      lyingSource(130, (p) => ({ ...p, totalCount: 60 })),
      { states: ["all"] },
    );
    expect(scan.complete).toBe(false);
  });
});
