// Its own module, as the digest's and the health notice's: building a test notice does not load
// the zod schema that checks one.

/** The schema name and version every structured test notice carries in `schema`. */
export const TEST_V1 = "fleet-auditor.test/v1";
