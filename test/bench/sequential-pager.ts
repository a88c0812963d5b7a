import type { RuntimeFilters, RuntimeSource, RuntimesPage } from "@fleet-auditor/keb";

/**
 * The baseline: pages one after another the way KEB's Go client (`common/runtime/client.go`)
 * does, stopping when the running count reaches the latest `totalCount`. Benchmark use only.
 */
export async function sequentialScan(
  source: RuntimeSource,
  filters: RuntimeFilters,
): Promise<{ pages: number; listed: number }> {
  let listed = 0;
  let pages = 0;
  let total = Number.POSITIVE_INFINITY;
  for (let page = 1; listed < total; page++) {
    const got: RuntimesPage = await source.listPage({
      ...filters,
      page,
      pageSize: 100,
      operationDetail: "last",
    });
    pages++;
    listed += got.data.length;
    total = got.totalCount;
    if (got.data.length === 0) break;
  }
  return { pages, listed };
}
