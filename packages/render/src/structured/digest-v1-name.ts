// Its own module, so that building a digest does not load the zod schema that checks one: the
// audit function builds digests and never parses them (its bundle stays within its budget).

/** The schema name and version every structured digest carries in `schema`. */
export const DIGEST_V1 = "fleet-auditor.digest/v1";
