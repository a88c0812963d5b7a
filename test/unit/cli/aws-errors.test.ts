import { explainAwsError } from "@fleet-auditor/cli";
import { describe, expect, it } from "vitest";

// What AWS answers that an emulator on loopback cannot make it answer (expired, refused or
// denied credentials): errors shaped as the SDK throws them, a service exception with $metadata.

const config = {
  vars: { AUDIT_TABLE: "prod-audit", ALERT_TOPIC_ARN: "arn:aws:sns:eu-central-1:1:a" },
  linked: [],
};

function awsError(name: string, message = "from AWS"): Error {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode: 400 } });
}

describe("explainAwsError", () => {
  it.each([
    ["ExpiredTokenException", "the credentials have expired: renew them"],
    ["UnrecognizedClientException", "refused the credentials: check AWS_PROFILE"],
    ["InvalidSignatureException", "refused the credentials"],
    ["AccessDeniedException", "denied the call: the credentials lack a permission"],
    ["AuthorizationErrorException", "denied the call"],
    ["NotFoundException", "the topic does not exist in this account and region: check ALERT_TOPIC_ARN"],
  ])("says what to do about %s, found in the cause chain too", (name, says) => {
    for (const err of [awsError(name), new Error("run failed", { cause: awsError(name) })]) {
      const told = explainAwsError(err, config);
      expect(told).toContain(
        `AWS (AUDIT_TABLE, ALERT_TOPIC_ARN)${/^(denied|refused)/.test(says) ? " " : ": "}${says}`,
      );
      expect(told).toMatch(/; or unset AUDIT_TABLE, ALERT_TOPIC_ARN to use the embedded store instead$/);
    }
  });

  it("leaves alone what is not the SDK's: an error merely named like AWS's, or any other", () => {
    expect(explainAwsError(new Error("the KEB token has expired"), config)).toBeUndefined();
    expect(
      explainAwsError(Object.assign(new Error("x"), { name: "AccessDeniedException" }), config),
    ).toBeUndefined();
    expect(explainAwsError(new TypeError("boom"), config)).toBeUndefined();
    expect(explainAwsError("not an error", config)).toBeUndefined();
  });
});
