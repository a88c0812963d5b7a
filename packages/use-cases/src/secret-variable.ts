import { string } from "zod";

/**
 * A secret variable (a token, a client secret, a password): non-empty, and refused with a line
 * break, a control character or surrounding spaces, almost always a paste mistake that the
 * service would refuse later with a vaguer error. The message never repeats the value.
 */
export const secretVariable = () =>
  string()
    .min(1)
    .refine((v) => v === v.trim() && !/\p{Cc}/u.test(v), {
      message: "has a line break, a control character or surrounding spaces (a paste mistake?)",
    });
