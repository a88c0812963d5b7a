import { coerce, object, string } from "zod";

/** Variables of the Application functions. */
export const ApplicationsEnvSchema = object({
  STATUS_TABLE: string().min(3),
  FINISHED_TTL_HOURS: coerce.number().int().positive().default(72),
  UNFINISHED_TTL_DAYS: coerce.number().int().positive().default(30),
  QUARANTINE_TTL_DAYS: coerce.number().int().positive().default(30),
});
