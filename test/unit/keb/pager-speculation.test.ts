import {
  type ListParameters,
  type RuntimeSource,
  type RuntimesPage,
  scanAll,
  scanRuntimes,
} from "@fleet-auditor/keb";
import { Fleet, generateFleet } from "@fleet-auditor/keb-kubeedge-sim";
import { describe, expect, it } from "vitest";
import { FleetSource } from "../../helpers/memory-ports.ts";

// Page 1 tells totalCount; until it arrives, the slots it leaves free would sit idle. When the
// count can be expected (given, or the last scan's), the pages it implies go out with page 1,
// and every completeness check still holds for them.

/** The simulator's answers, rewritten by `lie`; while `held`, no answer leaves until `release()`. */
class RecordingSource implements RuntimeSource {
  readonly asked: string[] = [];
  held = false;
  readonly lie: (page: RuntimesPage, params: ListParameters) => RuntimesPage;
  readonly #honest: FleetSource;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number, lie: (page: RuntimesPage, params: ListParameters) => RuntimesPage = (p) => p) {
    this.lie = lie;
    this.#honest = new FleetSource(new Fleet(generateFleet({ size, seed: 8, flagged: 0 })));
  }

  async listPage(params: ListParameters): Promise<RuntimesPage> {
    this.asked.push(`${params.plans?.join(",") ?? "all"}#${params.page}`);
    if (this.held) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    return this.lie(await this.#honest.listPage(params), params);
  }

  /** What was asked for while no answer could arrive; then every answer is let through. */
  async release(): Promise<string[]> {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    const sent = [...this.asked];
    this.held = false;
    for (const go of this.#waiting.splice(0)) go();
    return sent;
  }
}

describe("scanRuntimes: pages asked for with page 1", () => {
  it("asks for the pages an expected totalCount implies together with page 1, up to the concurrency", async () => {
    const source = new RecordingSource(1050);
    source.held = true;
    const scan = scanRuntimes(source, { states: ["all"] }, { expectedTotal: 1050, concurrency: 4 });
    expect(await source.release()).toEqual(["all#1", "all#2", "all#3", "all#4"]);
    expect(await scan).toMatchObject({ complete: true, pages: 11, listed: 1050 });
    expect(source.asked).toHaveLength(11);
  });

  it("asks for page 1 alone when nothing tells what to expect", async () => {
    const source = new RecordingSource(1050);
    source.held = true;
    const scan = scanRuntimes(source, { states: ["all"] }, { concurrency: 4 });
    expect(await source.release()).toEqual(["all#1"]);
    expect((await scan).complete).toBe(true);
  });

  it("expects the totalCount that the last scan of the same query from the same source saw", async () => {
    const source = new RecordingSource(1050);
    await scanRuntimes(source, { states: ["all"] });
    // Another source (another KEB, another client) expects nothing of it.
    const other = new RecordingSource(1050);
    other.held = true;
    const elsewhere = scanRuntimes(other, { states: ["all"] });
    expect(await other.release()).toEqual(["all#1"]);
    await elsewhere;
    source.asked.length = 0;
    source.held = true;
    const again = scanRuntimes(source, { states: ["all"] });
    expect(await source.release()).toEqual(["all#1", "all#2", "all#3", "all#4"]);
    expect(await again).toMatchObject({ complete: true, pages: 11 });
  });

  it("takes only the slots that no query's page 1 needs in scanAll", async () => {
    const source = new RecordingSource(1050);
    const queries = [{ states: ["all" as const] }, { states: ["all" as const], plans: ["trial"] }];
    await scanAll(source, queries, { concurrency: 3 });
    source.asked.length = 0;
    source.held = true;
    const scans = scanAll(source, queries, { concurrency: 3 });
    const sent = await source.release();
    expect(sent).toHaveLength(3);
    expect(sent).toEqual(expect.arrayContaining(["all#1", "trial#1"]));
    expect((await scans).every((s) => s.complete)).toBe(true);
  });

  it("is complete when pages asked for early turn out past the last one and come back empty, not counting them", async () => {
    const source = new RecordingSource(150);
    const scan = await scanRuntimes(source, { states: ["all"] }, { expectedTotal: 1050, concurrency: 4 });
    expect(source.asked).toEqual(["all#1", "all#2", "all#3", "all#4"]);
    expect(scan).toMatchObject({ complete: true, pages: 2, totalCount: 150, listed: 150 });
  });

  it("is incomplete when a page asked for early tells another totalCount than page 1", async () => {
    const source = new RecordingSource(1050, (p, q) => (q.page === 1 ? { ...p, totalCount: 200 } : p));
    const scan = await scanRuntimes(source, { states: ["all"] }, { expectedTotal: 1050, concurrency: 4 });
    expect(scan.complete).toBe(false);
    expect(scan.incompleteReason).toMatch(/^totalCount changed from 200 to 1050 at page [234]$/);
  });

  it("is incomplete when a page past totalCount holds runtimes under the same count", async () => {
    const source = new RecordingSource(150);
    const stray = (await source.listPage({ states: ["all"], page: 1, pageSize: 1 })).data;
    const liar: RuntimeSource = {
      listPage: async (params) => {
        const page = await source.listPage(params);
        return params.page === 4 ? { ...page, data: stray, count: 1 } : page;
      },
    };
    const scan = await scanRuntimes(liar, { states: ["all"] }, { expectedTotal: 1050, concurrency: 4 });
    expect(scan.complete).toBe(false);
    expect(scan.incompleteReason).toBe("page 4 held 1 runtimes past totalCount 150");
  });

  it("reports page 1 when it fails while pages asked for early are in flight", async () => {
    const source = new RecordingSource(1050, (p, q) => {
      if (q.page === 1) throw new Error("page 1 broke");
      return p;
    });
    const scan = await scanRuntimes(source, { states: ["all"] }, { expectedTotal: 1050, concurrency: 4 });
    expect(scan).toMatchObject({
      complete: false,
      incompleteReason: "page 1 failed: page 1 broke",
      pages: 0,
    });
    expect(source.asked).toEqual(["all#1", "all#2", "all#3", "all#4"]);
  });
});
