import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";

/**
 * A validator of a JSON Schema (2020-12) as a consumer of the published schemas reads it: its
 * formats (`date-time`, `email`, `uri`) checked as they mean (ajv-formats), not ignored.
 */
export function schemaValidator(schema: object): ValidateFunction {
  const ajv = new Ajv2020({ strict: true });
  // A CommonJS module: imported, it is `module.exports`, whose `default` is the plugin.
  formats.default(ajv);
  return ajv.compile(schema);
}
