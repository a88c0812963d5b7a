// Its own module, as the digest's and the health notice's: building an action's notice does not
// load the zod schema that checks one.

/** The schema name and version every structured incident action carries in `schema`. */
export const ACTION_V1 = "fleet-auditor.action/v1";
