import { readFileSync } from "node:fs";
import {
  decodeApplication,
  decodeMessage,
  identifier,
  looksLikeHashId,
  MetaserverParseError,
  utf8,
} from "@fleet-auditor/metaserver";
import { describe, expect, it } from "vitest";

const raw = (name: string): string =>
  readFileSync(new URL(`../../fixtures/kubeedge/${name}`, import.meta.url), "utf8");
const fixture = (name: string): Record<string, unknown> => JSON.parse(raw(name));
const parseError = (fn: () => unknown): MetaserverParseError => {
  try {
    fn();
  } catch (err) {
    return err as MetaserverParseError;
  }
  throw new Error("expected a parse error");
};

describe("Identifier()", () => {
  it("matches KubeEdge's test vectors: SHA-256 over raw bytes with no separators", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const key = "group/version/resource/namespaces/name";
    expect(identifier({ nodename: "test-node-one", key, verb: "GET", subresource: "pod" })).toBe(
      "540da067754af58ba6059fce1179cb7908a5216617ea771cae5fb19d14922ecf",
    );
    expect(
      identifier({
        nodename: "test-node-two",
        key,
        verb: "POST",
        option: enc('{"foo":"bar"}'),
        reqBody: enc('{"baz":"qux"}'),
        subresource: "pod",
      }),
    ).toBe("5c94e043db0b21582e7c7586983d12212ba8c0625717e4664ca4e1e9271905e0");
    expect(identifier({ id: "predefined-id", nodename: "n", key, verb: "GET", subresource: "" })).toBe(
      "predefined-id",
    );
  });

  it("recomputes the reference Application's ID from its decoded Option bytes", () => {
    const app = decodeApplication({ ...fixture("application-list-approved.json"), ID: "" });
    expect(app.id).toBe("d949d63556d6b755fc45a989ea561a6da60803680e0df21ca4ae081a9e40574a");
  });

  it("accepts 32-hex MD5 IDs from old edges as IDs", () => {
    const app = decodeApplication({
      ...fixture("application-list-approved.json"),
      ID: "9e107d9d372bb6826bd81d3542a419d6",
    });
    expect(app.id).toBe("9e107d9d372bb6826bd81d3542a419d6");
    expect(looksLikeHashId(app.id)).toBe("md5");
    expect(looksLikeHashId("d949d63556d6b755fc45a989ea561a6da60803680e0df21ca4ae081a9e40574a")).toBe(
      "sha256",
    );
  });
});

describe("decodeApplication", () => {
  it("decodes base64 bytes, parses the key and keeps the zero Timestamp as null", () => {
    const app = decodeApplication(fixture("application-list-approved.json"));
    expect(utf8(app.option as Uint8Array)).toBe('{"labelSelector":"app=nginx","resourceVersion":"0"}');
    expect(JSON.parse(utf8(app.respBody as Uint8Array))).toMatchObject({ kind: "PodList" });
    expect(app.reqBody).toBeUndefined();
    expect(app).toMatchObject({
      gvr: { group: "", version: "v1", resource: "pods" },
      namespace: "default",
      name: "",
      status: "Approved",
      timestamp: null,
    });
  });

  it("decodes a patch Option to PatchInfo with its own base64 Data", () => {
    const app = decodeApplication(fixture("application-patch.json"));
    expect(app.patch).toMatchObject({
      name: "nginx",
      patchType: "application/strategic-merge-patch+json",
      subresources: [""],
      options: { fieldManager: "kubectl-patch" },
    });
    expect(utf8(app.patch?.data as Uint8Array)).toBe('{"metadata":{"labels":{"tier":"edge"}}}');
    expect(app.id).toBe("972304c19bf4f837fc7b0b141210f846f82a8ce109c89f4da4c6eb710ad08acf");
  });

  it("binds field names case-insensitively and ignores unknown keys such as Token", () => {
    const app = decodeApplication({
      id: "x1",
      KEY: "/core/v1/pods/a/b",
      verb: "get",
      nodeName: "n1",
      status: "InApplying",
      Token: "secret",
    });
    expect(app).toMatchObject({
      id: "x1",
      key: "/core/v1/pods/a/b",
      verb: "get",
      nodename: "n1",
      status: "InApplying",
    });
  });

  it('treats null and empty byte fields as absent, and RespBody "" of a re-applied request too', () => {
    const app = decodeApplication({ ID: "a", Option: null, ReqBody: "", RespBody: "" });
    expect([app.option, app.reqBody, app.respBody]).toEqual([undefined, undefined, undefined]);
  });

  it("decodes a typed-nil option (base64 of null) as the 4 bytes null", () => {
    expect(utf8(decodeApplication({ ID: "a", Option: "bnVsbA==" }).option as Uint8Array)).toBe("null");
  });

  it("reads Error.ErrStatus with or without TypeMeta", () => {
    const app = decodeApplication({
      ID: "a",
      Status: "Rejected",
      Error: fixture("test-rejected-error.json"),
    });
    expect(app.errStatus).toMatchObject({
      status: "Failure",
      message: "rejected",
      reason: "Invalid",
      code: 400,
    });
  });

  it.each([
    [{ ID: "a", Option: "eyJ3YXRjaCI6dHJ1ZX0" }, /Option: not padded standard base64/],
    [{ ID: "a", ReqBody: "eyJ3YXRjaCI6dHJ1ZX0_-A==" }, /ReqBody: not padded standard base64/],
    [{ ID: "a", Option: 42 }, /Option: expected a base64 string/],
    [{ ID: "a", Timestamp: "yesterday" }, /Timestamp: expected an RFC 3339 time/],
    [{ ID: "a", Verb: 7 }, /Verb: /],
    [{ ID: "a", Verb: "patch", Option: "bm90IGpzb24=" }, /patch Option must be PatchInfo JSON/],
  ])("rejects %j with a reason", (input, reason) => {
    const err = parseError(() => decodeApplication(input));
    expect(err).toBeInstanceOf(MetaserverParseError);
    expect(err.message).toMatch(reason);
  });
});

describe("keys bound as Go's encoding/json binds them", () => {
  const envelope = (content: unknown, header: Record<string, unknown> = { msg_id: "m", timestamp: 1 }) =>
    JSON.stringify({ header, route: { resource: "node/edge-1/null" }, content });

  it("binds the last of two keys that differ only in case, whether or not it is the exact name", () => {
    expect(decodeApplication({ ID: "first", id: "last" }).id).toBe("last");
    expect(decodeApplication({ id: "first", ID: "last" }).id).toBe("last");
    expect(decodeApplication({ Status: "Approved", status: "Rejected", STATUS: "Failed" }).status).toBe(
      "Failed",
    );
  });

  it("folds case as Go does: the Kelvin sign binds as k and the long s as s", () => {
    const app = decodeApplication({ "\u212Aey": "/core/v1/pods/a/b", "\u017Ftatus": "Approved", ID: "x" });
    expect(app).toMatchObject({ key: "/core/v1/pods/a/b", status: "Approved" });
    expect(decodeApplication({ ID: "x", "\u0130D": "dotted capital I is not i" }).id).toBe("x");
  });

  it("binds a content object in the sorted key order of Go's map round trip, a content string in its own order", () => {
    // Go decodes an object content into a map and marshals it again (keys sorted) before binding.
    const object = decodeMessage(envelope({ id: "lower", ID: "upper" }));
    expect(object.applications[0]?.id).toBe("lower");
    const text = decodeMessage(envelope(JSON.stringify({ id: "lower", ID: "upper" })));
    expect(text.applications[0]?.id).toBe("upper");
    const sync = decodeMessage(
      JSON.stringify({
        header: { msg_id: "s", timestamp: 1 },
        route: { resource: "node/edge-1/watchapp/sync" },
        content: { k1: { verb: "list", Verb: "watch", ID: "k1" } },
      }),
    );
    expect(sync.applications[0]?.verb).toBe("list");
  });

  it("keeps a field as it was for a null, as Go does for a string, a struct and a time, and clears bytes", () => {
    const app = decodeApplication({
      ID: "x",
      Verb: "get",
      verb: null,
      Reason: null,
      Timestamp: "2026-11-30T12:00:00Z",
      timestamp: null,
      Error: { ErrStatus: { code: 404 } },
      error: null,
      Option: "e30=",
      option: null,
    });
    expect(app).toMatchObject({ verb: "get", reason: "", timestamp: "2026-11-30T12:00:00Z" });
    expect(app.errStatus).toMatchObject({ code: 404 });
    expect(app.option).toBeUndefined();
  });

  it("refuses an Application when any key bound to a field has the wrong type, as Go fails the whole decode", () => {
    const err = parseError(() => decodeApplication({ ID: "x", Verb: 7, verb: "get" }));
    expect(err).toMatchObject({ code: "MS_APPLICATION" });
    expect(err.message).toMatch(/content\.Verb: /);
  });

  it("merges two keys bound to a struct field, as Go decodes both into it, and binds Status fields case-insensitively", () => {
    const app = decodeApplication({
      ID: "x",
      Status: "Rejected",
      Error: { ErrStatus: { code: 404, message: "first" } },
      error: { errStatus: { Reason: "NotFound", MESSAGE: "second" } },
    });
    expect(app.errStatus).toMatchObject({ code: 404, reason: "NotFound", message: "second" });
  });

  it("binds the envelope's keys case-insensitively too, the last one winning", () => {
    const m = decodeMessage(
      JSON.stringify({
        Header: { MSG_ID: "m-1", timestamp: 1, Timestamp: 2, Parent_Msg_Id: "p-1" },
        Route: { Resource: "node/edge-7/null", operation: "applicationResponse" },
        Content: { ID: "x", Verb: "get" },
      }),
    );
    expect(m).toMatchObject({
      msgId: "m-1",
      timestamp: 2,
      parentMsgId: "p-1",
      node: "edge-7",
      kind: "response",
    });
    const merged = decodeMessage(
      JSON.stringify({ header: { msg_id: "m-2" }, HEADER: { timestamp: 3 }, content: { ID: "x" } }),
    );
    expect(merged).toMatchObject({ msgId: "m-2", timestamp: 3 });
    const err = parseError(() =>
      decodeMessage(envelope({ ID: "x" }, { msg_id: "m", timestamp: 1, TIMESTAMP: "now" })),
    );
    expect(err).toMatchObject({ code: "MS_ENVELOPE" });
    expect(err.message).toMatch(/header\.timestamp/);
  });
});

describe("decodeMessage", () => {
  it("reads a request sent over WebSocket (content object)", () => {
    const m = decodeMessage(raw("request-list.json"));
    expect(m).toMatchObject({
      msgId: "2530d97b-9d97-446b-aacd-79ded34b7301",
      timestamp: 1785999506123,
      kind: "request",
      viaSns: false,
    });
    expect(m.applications).toHaveLength(1);
    expect(m.applications[0]).toMatchObject({ status: "InApplying", verb: "list", nodename: "edge-node-1" });
  });

  it("reads a response linked by parent_msg_id, deciding success on Status alone", () => {
    const ok = decodeMessage(raw("response-list-approved.json"));
    expect(ok).toMatchObject({ kind: "response", parentMsgId: "2530d97b-9d97-446b-aacd-79ded34b7301" });
    const rejected = decodeMessage(raw("response-get-rejected.json"));
    expect(rejected.applications[0]?.errStatus).toMatchObject({ reason: "NotFound", code: 404 });
  });

  it("reads a watch sync as a map of ID to Application, and an empty map as no Applications", () => {
    const m = decodeMessage(raw("watch-sync-request.json"));
    expect(m.kind).toBe("watchSync");
    expect(m.applications.map((a) => a.key).sort()).toEqual([
      "/core/v1/services/null/null",
      "/discovery.k8s.io/v1/endpointslices/null/null",
    ]);
    const empty = decodeMessage(JSON.stringify({ ...fixture("watch-sync-request.json"), content: {} }));
    expect(empty.applications).toEqual([]);
    const response = decodeMessage(
      JSON.stringify({
        header: { msg_id: "r1", parent_msg_id: "d4af", timestamp: 1 },
        route: { operation: "applicationResponse", resource: "watchapp/sync" },
        content: {},
      }),
    );
    expect(response.kind).toBe("watchSyncResponse");
  });

  it("takes the node from route.resource node/<id>/ over the content's Nodename", () => {
    const body = fixture("request-list.json");
    const m = decodeMessage(
      JSON.stringify({ ...body, route: { ...(body.route as object), resource: "node/edge-node-7/null" } }),
    );
    expect(m.node).toBe("edge-node-7");
    expect(m.applications[0]?.nodename).toBe("edge-node-7");
  });

  it("decodes content given as a string of JSON text again, as Go does", () => {
    const body = fixture("request-list.json");
    const m = decodeMessage(JSON.stringify({ ...body, content: JSON.stringify(body.content) }));
    expect(m.applications[0]?.verb).toBe("list");
  });

  it("unwraps an SNS notification envelope (SNS to SQS fan-out)", () => {
    const sns = {
      Type: "Notification",
      MessageId: "m",
      TopicArn: "arn:aws:sns:us-east-1:123456789012:t",
      Message: raw("request-list.json"),
    };
    expect(decodeMessage(JSON.stringify(sns))).toMatchObject({ viaSns: true, kind: "request" });
  });

  it("accepts the test bodies of KubeEdge's own unit tests", () => {
    const single = decodeMessage(
      JSON.stringify({
        header: { msg_id: "t", timestamp: 0 },
        route: {},
        content: fixture("test-msg-to-application.json"),
      }),
    );
    expect(single.applications[0]).toMatchObject({
      verb: "GET",
      nodename: "test-node",
      key: "group/version/resource/namespaces/name",
      namespace: "",
    });
    const map = decodeMessage(
      JSON.stringify({
        header: { msg_id: "t", timestamp: 0 },
        route: { resource: "watchapp/sync" },
        content: fixture("test-msg-to-applications.json"),
      }),
    );
    expect(map.applications).toHaveLength(2);
  });

  it.each([
    ["not json", "MS_NOT_JSON", /body is not JSON/],
    [JSON.stringify({ header: { timestamp: 1 }, content: {} }), "MS_ENVELOPE", /header\.msg_id/],
    [
      JSON.stringify({ header: { msg_id: "m", timestamp: "now" }, content: {} }),
      "MS_ENVELOPE",
      /header\.timestamp/,
    ],
    [JSON.stringify({ header: { msg_id: "m", timestamp: 1 }, content: 42 }), "MS_CONTENT", /got number/],
    [
      JSON.stringify({ header: { msg_id: "m", timestamp: 1 }, content: "eyJJRCI6ImEifQ==" }),
      "MS_CONTENT",
      /base64 content is not decoded/,
    ],
    [JSON.stringify({ header: { msg_id: "m", timestamp: 1 }, content: [1] }), "MS_CONTENT", /an array/],
    [JSON.stringify({ Type: "Notification", Message: "{" }), "MS_NOT_JSON", /SNS Message is not JSON/],
  ])("refuses %s with %s", (body, code, reason) => {
    const err = parseError(() => decodeMessage(body));
    expect(err.code).toBe(code);
    expect(err.message).toMatch(reason);
  });
});
