// Its own module, as the digest's and the health notice's: building a summary does not load the
// zod schema that checks one.

/** The schema name and version every structured incident summary carries in `schema`. */
export const SUMMARY_V1 = "fleet-auditor.summary/v1";
