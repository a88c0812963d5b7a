import { createHmac, randomBytes } from "node:crypto";
import { verifyPagerDutySignature } from "@fleet-auditor/inbound";
import { describe, expect, it } from "vitest";
import {
  PAGERDUTY_WEBHOOK_SECRET,
  pagerDutyDelivery,
  signatureHeader,
} from "../../helpers/fake-pagerduty.ts";

// PagerDuty's rules ("Verifying Signatures", developer.pagerduty.com):
// - "The X-PagerDuty-Signature header included with each webhook event delivery contains one or
//   more signatures. Multiple signatures may be present to allow for a zero-downtime secret
//   rotation."
// - "The current signature version is v1 and is computed as an HMAC of the payload body using a
//   SHA-256 hash function. This is performed for each signing secret and the results are
//   concatenated using comma separation."
// - "Split the signatures which are separated by the , character. Select only signatures which
//   are version v1 and remove the v1= prefix."
// - "If at least one of the signatures matches, the webhook should be considered a trusted and
//   authentic request from PagerDuty."
// - "Verifying PagerDuty webhook signatures requires the unaltered raw body of the request."

const bytes = (s: string): Buffer => Buffer.from(s, "utf8");
const forged = (): string => `v1=${randomBytes(32).toString("hex")}`;

describe("verifyPagerDutySignature", () => {
  it("takes a delivery signed with the subscription's secret", () => {
    const d = pagerDutyDelivery();
    expect(
      verifyPagerDutySignature(bytes(d.body), d.headers["X-PagerDuty-Signature"], PAGERDUTY_WEBHOOK_SECRET),
    ).toBe(true);
  });

  it("refuses a forged signature, and one made with another secret", () => {
    const d = pagerDutyDelivery();
    expect(verifyPagerDutySignature(bytes(d.body), forged(), PAGERDUTY_WEBHOOK_SECRET)).toBe(
      "signature-mismatch",
    );
    const other = pagerDutyDelivery({ secrets: ["another-subscription's-secret"] });
    expect(
      verifyPagerDutySignature(
        bytes(other.body),
        other.headers["X-PagerDuty-Signature"],
        PAGERDUTY_WEBHOOK_SECRET,
      ),
    ).toBe("signature-mismatch");
  });

  it("refuses a genuine signature over another body, even one that differs by a byte or a space", () => {
    const d = pagerDutyDelivery({ incidentKey: "inc-one" });
    const header = d.headers["X-PagerDuty-Signature"];
    for (const body of [
      pagerDutyDelivery({ incidentKey: "inc-two" }).body,
      d.body.replace("inc-one", "inc-onf"),
      `${d.body} `,
      JSON.stringify(JSON.parse(d.body), null, 2),
    ])
      expect(verifyPagerDutySignature(bytes(body), header, PAGERDUTY_WEBHOOK_SECRET)).toBe(
        "signature-mismatch",
      );
  });

  it("takes a rotation's two signatures when either is the body's, the second included", () => {
    const rotating = pagerDutyDelivery({ secrets: ["the-old-secret", PAGERDUTY_WEBHOOK_SECRET] });
    const header = rotating.headers["X-PagerDuty-Signature"] as string;
    expect(header.split(",")).toHaveLength(2);
    expect(verifyPagerDutySignature(bytes(rotating.body), header, PAGERDUTY_WEBHOOK_SECRET)).toBe(true);
    expect(verifyPagerDutySignature(bytes(rotating.body), header, "the-old-secret")).toBe(true);
    expect(verifyPagerDutySignature(bytes(rotating.body), header, "neither")).toBe("signature-mismatch");
    // Spaces around the commas are no reason to refuse it.
    expect(
      verifyPagerDutySignature(bytes(rotating.body), header.replace(",", " , "), PAGERDUTY_WEBHOOK_SECRET),
    ).toBe(true);
  });

  it("verifies the raw UTF-8 bytes: a body with non-ASCII text", () => {
    const d = pagerDutyDelivery({ agent: { id: "PZOE001", summary: "Zoë Ünal ✓ 日本" } });
    expect(d.body).toContain("Zoë");
    expect(
      verifyPagerDutySignature(bytes(d.body), d.headers["X-PagerDuty-Signature"], PAGERDUTY_WEBHOOK_SECRET),
    ).toBe(true);
    // The same text encoded otherwise is other bytes, and another body.
    expect(
      verifyPagerDutySignature(
        Buffer.from(d.body, "latin1"),
        d.headers["X-PagerDuty-Signature"],
        PAGERDUTY_WEBHOOK_SECRET,
      ),
    ).toBe("signature-mismatch");
  });

  it("refuses a missing or empty header", () => {
    const body = bytes(pagerDutyDelivery().body);
    expect(verifyPagerDutySignature(body, undefined, PAGERDUTY_WEBHOOK_SECRET)).toBe("signature-missing");
    expect(verifyPagerDutySignature(body, "  ", PAGERDUTY_WEBHOOK_SECRET)).toBe("signature-missing");
  });

  it("ignores signatures of an unknown version, and refuses a header with nothing else", () => {
    const d = pagerDutyDelivery();
    const body = bytes(d.body);
    const v1 = d.headers["X-PagerDuty-Signature"] as string;
    const v2 = `v2=${createHmac("sha512", PAGERDUTY_WEBHOOK_SECRET).update(body).digest("hex")}`;
    expect(verifyPagerDutySignature(body, v2, PAGERDUTY_WEBHOOK_SECRET)).toBe("signature-unsupported");
    expect(verifyPagerDutySignature(body, `${v2},${v1}`, PAGERDUTY_WEBHOOK_SECRET)).toBe(true);
  });

  it("refuses a malformed header: no version, a v1 that is not 64 hex digits, too many or too long", () => {
    const d = pagerDutyDelivery();
    const body = bytes(d.body);
    const v1 = d.headers["X-PagerDuty-Signature"] as string;
    for (const header of [
      v1.slice(3),
      `${v1},garbage`,
      `v1=${"ab".repeat(31)}`,
      `v1=${"zz".repeat(32)}`,
      `${v1}\n,${v1}`.replace("\n,", ",\n"),
      Array.from({ length: 9 }, () => v1).join(","),
      `${v1},x=${"a".repeat(1_024)}`,
    ])
      expect(verifyPagerDutySignature(body, header, PAGERDUTY_WEBHOOK_SECRET), header.slice(0, 40)).not.toBe(
        true,
      );
    expect(verifyPagerDutySignature(body, v1.slice(3), PAGERDUTY_WEBHOOK_SECRET)).toBe("signature-malformed");
  });

  it("agrees with the stand-in's signature, made as PagerDuty's docs say, for any body", () => {
    for (const body of ["", "{}", "x".repeat(70_000)])
      expect(verifyPagerDutySignature(bytes(body), signatureHeader(body, ["k"]), "k")).toBe(true);
  });
});
