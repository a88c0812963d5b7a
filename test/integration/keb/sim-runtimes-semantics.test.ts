import { compareTimes } from "@fleet-auditor/keb";
import { filterOperation, type SimInstance } from "@fleet-auditor/keb-kubeedge-sim";
import { beforeAll, describe, expect, it } from "vitest";
import { ids, useKebSimulator } from "../../helpers/keb.ts";

// 400 runtimes with a wide spread of scenarios, all on one or a few pages.
const kit = useKebSimulator({ fleet: { size: 400, seed: 7, flagged: 80 } });

/** A runtime as the simulator puts it on the wire, typed as far as these tests read it. */
interface WireRuntime {
  instanceID: string;
  userID: string;
  status: {
    state: string;
    createdAt: string;
    modifiedAt: string;
    expiredAt?: string;
    update?: { count: number; totalCount: number; data: Array<{ createdAt: string }> };
    [field: string]: unknown;
  };
}

async function all(query: string): Promise<WireRuntime[]> {
  const { status, body } = await kit.raw(`/runtimes?page_size=100&${query}`);
  expect(status).toBe(200);
  const first = body as { data: WireRuntime[]; totalCount: number };
  const out = [...first.data];
  for (let page = 2; (page - 1) * 100 < first.totalCount; page++) {
    out.push(...((await kit.raw(`/runtimes?page_size=100&page=${page}&${query}`)).body as typeof first).data);
  }
  return out;
}
const lastOp = (i: SimInstance) => filterOperation(i);
const where = (pred: (i: SimInstance) => boolean) =>
  kit.sim.fleet
    .all()
    .filter(pred)
    .map((i) => i.instanceID);
const succeededDeprovision = (i: SimInstance) =>
  lastOp(i)?.type === "deprovision" && lastOp(i)?.state === "succeeded";

describe("the simulator's GET /runtimes, as KEB answers it", () => {
  let fleetIds: string[];
  beforeAll(() => {
    fleetIds = kit.sim.fleet.all().map((i) => i.instanceID);
  });

  it("hides runtimes whose last operation is a succeeded deprovision when no state is given", async () => {
    const listed = (await all("")).map((r) => r.instanceID);
    expect(listed).toEqual(where((i) => !succeededDeprovision(i)));
    expect(listed.length).toBeLessThan(fleetIds.length);
    // The hidden ones are suspended and deprovisionincomplete runtimes.
    const hidden = kit.sim.fleet.all().filter(succeededDeprovision);
    expect(hidden.every((i) => !i.active || i.deletedAt !== undefined)).toBe(true);
  });

  it("ORs recognised states: state=failed&state=error", async () => {
    const rows = await all("state=failed&state=error");
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.status.state))).toEqual(new Set(["failed", "error"]));
  });

  it("classifies failed vs error by operation type, as KEB's SQL does", async () => {
    const failed = await all("state=failed");
    const error = await all("state=error");
    expect(failed.length).toBeGreaterThan(0);
    expect(error.length).toBeGreaterThan(0);
    expect(failed.every((r) => r.status.state === "failed")).toBe(true);
    expect(error.every((r) => r.status.state === "error")).toBe(true);
  });

  it("ANDs deprovisionincomplete with the other states instead of ORing it (the trap)", async () => {
    const incomplete = await all("state=deprovisionincomplete");
    expect(incomplete.length).toBeGreaterThan(0);
    expect(incomplete.every((r) => r.status.state === "deprovisionincomplete")).toBe(true);
    const combined = await all("state=failed&state=deprovisionincomplete");
    // Failed AND deletion attempted: none in this fleet, although both sets are non-empty.
    expect(combined).toEqual([]);
    expect((await all("state=failed")).length).toBeGreaterThan(0);
  });

  it("ignores a comma-joined state, which drops all state filtering including the default exclusion", async () => {
    const commaJoined = (await all("state=failed,error")).map((r) => r.instanceID);
    expect(commaJoined).toEqual(fleetIds);
    expect((await all("state=bogus")).map((r) => r.instanceID)).toEqual(fleetIds);
  });

  it("lists everything with state=all, and keeps the suspended flag in force beside it", async () => {
    expect((await all("state=all")).map((r) => r.instanceID)).toEqual(fleetIds);
    const suspended = (await all("state=all&state=suspended")).map((r) => r.instanceID);
    expect(suspended).toEqual(where((i) => !i.active));
  });

  it("state=suspended matches inactive runtimes whatever they display", async () => {
    const rows = await all("state=suspended");
    expect(rows.map((r) => r.instanceID)).toEqual(where((i) => !i.active));
    expect(new Set(rows.map((r) => r.status.state)).size).toBeGreaterThan(1);
  });

  it("expired=true alone hides successfully suspended expired runtimes; with state=all it shows them", async () => {
    const expiredAll = await all("expired=true&state=all");
    const expiredDefault = await all("expired=true");
    expect(expiredAll.map((r) => r.instanceID)).toEqual(where((i) => i.expiredAt !== undefined));
    expect(expiredDefault.length).toBeLessThan(expiredAll.length);
    expect(expiredAll.every((r) => r.status.expiredAt)).toBe(true);
    expect(expiredAll.some((r) => r.status.state === "suspended")).toBe(true);
    expect((await all("expired=false&state=all")).length).toBe(fleetIds.length);
  });

  it("filters by plan name, hyperscaler region, account and instance", async () => {
    const sample = kit.sim.fleet.all()[10] as SimInstance;
    const q = `state=all&plan=${sample.servicePlanName}&region=${sample.region}&account=${sample.globalAccountID}`;
    expect((await all(q)).map((r) => r.instanceID)).toContain(sample.instanceID);
    expect(ids((await kit.raw(`/runtimes?state=all&instance_id=${sample.instanceID}`)).body)).toEqual([
      sample.instanceID,
    ]);
    expect((await all("state=all&region=cf-eu10")).length).toBe(0);
    expect((await all("state=all&plan=no-such-plan")).length).toBe(0);
  });

  it("matches shoot names as a regex, unescaped", async () => {
    const sample = kit.sim.fleet.all()[3] as SimInstance;
    const rows = await all(`state=all&shoot=${sample.shootName.slice(0, 4)}.*`);
    expect(rows.map((r) => r.instanceID)).toContain(sample.instanceID);
  });

  it("orders by createdAt ascending and pages by offset from 1", async () => {
    const page1 = (await kit.raw("/runtimes?state=all&page=1&page_size=7")).body as {
      data: Array<{ status: { createdAt: string } }>;
    };
    const page2 = (await kit.raw("/runtimes?state=all&page=2&page_size=7")).body;
    expect(ids(page2)).toEqual(fleetIds.slice(7, 14));
    const times = page1.data.map((r) => r.status.createdAt);
    expect([...times].sort(compareTimes)).toEqual(times);
  });

  it("answers a page past the end with no data and the real totalCount", async () => {
    const { status, body } = await kit.raw("/runtimes?state=all&page=99");
    expect(status).toBe(200);
    expect(body).toEqual({ data: [], count: 0, totalCount: fleetIds.length });
  });

  it.each([
    ["page_size=101", "pageSize is bigger than maxPage(100)"],
    ["page_size=0", "pageSize cannot be smaller than 1"],
    ["page_size=", "pageSize has to be an integer"],
    ["page_size=1&page_size=2", "pageSize has to be one parameter"],
    ["page=x", "page has to be an integer"],
    ["page=0", "page cannot be smaller than 1"],
    ["page=1&page=2", "page has to be one parameter"],
  ])("answers %s with 400 and KEB's text", async (query, message) => {
    const { status, body } = await kit.raw(`/runtimes?${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ error: `while getting query parameters: ${message}` });
  });

  it("embeds only the last processed operation with op_detail=last", async () => {
    const rows = await all("state=all&op_detail=last");
    for (const r of rows) {
      const embedded = [
        "provisioning",
        "deprovisioning",
        "update",
        "upgradingCluster",
        "suspension",
        "unsuspension",
      ].filter((k) => r.status[k]);
      expect(embedded.length).toBeLessThanOrEqual(1);
    }
    const full = await all("state=all");
    // The displayed states agree between the two details for this fleet.
    expect(rows.map((r) => r.status.state)).toEqual(full.map((r) => r.status.state));
  });

  it("keeps the 2 newest updates with op_detail=all and counts the rest in totalCount", async () => {
    const target = kit.sim.fleet.all().find((i) => i.active && !i.deletedAt) as SimInstance;
    for (let n = 0; n < 3; n++) kit.sim.fleet.fail(target.instanceID, "update");
    const { body } = await kit.raw(`/runtimes?state=all&instance_id=${target.instanceID}`);
    const update = (body as { data: WireRuntime[] }).data[0]?.status.update;
    expect(update?.count).toBe(2);
    expect(update?.totalCount).toBeGreaterThanOrEqual(3);
    const [newer, older] = update?.data ?? [];
    expect(compareTimes(newer?.createdAt ?? "", older?.createdAt ?? "")).toBe(1);
  });

  it("ignores an invalid op_detail and lets the last valid one win", async () => {
    const id = fleetIds[0] as string;
    const a = (await kit.raw(`/runtimes?state=all&instance_id=${id}&op_detail=bogus`)).body;
    const b = (await kit.raw(`/runtimes?state=all&instance_id=${id}&op_detail=last&op_detail=all`)).body;
    const c = (await kit.raw(`/runtimes?state=all&instance_id=${id}`)).body;
    expect(a).toEqual(c);
    expect(b).toEqual(c);
  });

  it("reads deprovisioned runtimes from the archive with an empty state and zero times", async () => {
    const victim = kit.sim.fleet.all()[20] as SimInstance;
    kit.sim.fleet.delete(victim.instanceID);
    expect((await all("state=all")).map((r) => r.instanceID)).not.toContain(victim.instanceID);
    const { body } = await kit.raw(`/runtimes?state=deprovisioned&instance_id=${victim.instanceID}`);
    const row = (body as { data: WireRuntime[] }).data[0];
    expect(row?.instanceID).toBe(victim.instanceID);
    expect(row?.status.state).toBe("");
    expect(row?.status.modifiedAt).toBe("0001-01-01T00:00:00Z");
    expect(row?.userID).toBe("- deleted -");
  });

  it("allows only GET and answers unknown paths like Go's mux", async () => {
    const post = await fetch(`${kit.sim.url}/runtimes`, { method: "POST" });
    expect(post.status).toBe(403);
    expect((await kit.raw("/runtimes/")).status).toBe(404);
  });
});
