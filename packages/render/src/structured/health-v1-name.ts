// Its own module, as the digest's: building a notice does not load the zod schema that checks one.

/** The schema name and version every structured health notice carries in `schema`. */
export const HEALTH_V1 = "fleet-auditor.health/v1";
