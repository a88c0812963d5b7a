import { keyFunc, keyFuncObj, kindToResource, parseKey } from "@fleet-auditor/metaserver";
import { describe, expect, it } from "vitest";

describe("ParseKey", () => {
  it.each([
    ["/core/v1/pods/default/pod-foo", "", "v1", "pods", "default", "pod-foo"],
    ["/core/v1/endpoints", "", "v1", "endpoints", "", ""],
    ["/core/v1/endpoints/", "", "v1", "endpoints", "", ""],
    ["/core/v1/endpoints/default", "", "v1", "endpoints", "default", ""],
    ["/core/v1/endpoints/null/null", "", "v1", "endpoints", "", ""],
    ["/core/v1/nodes/null/node-foo", "", "v1", "nodes", "", "node-foo"],
    ["/apps/v1/deployments/default/nginx", "apps", "v1", "deployments", "default", "nginx"],
    ["/app/v1111/endpoint", "app", "v1111", "endpoint", "", ""],
    ["/core/v1", "", "v1", "", "", ""],
    ["/core/v1/pods/ns/name/extra/segments", "", "v1", "pods", "ns", "name"],
    ["/version", "version", "", "", "", ""],
    ["/", "", "", "", "", ""],
    ["///////", "", "", "", "", ""],
    ["abc", "", "", "", "", ""],
    ["apps/v1/deployments/default/nginx", "", "", "", "", ""],
    ["", "", "", "", "", ""],
  ])("parses %j", (key, group, version, resource, namespace, name) => {
    expect(parseKey(key)).toEqual({ gvr: { group, version, resource }, namespace, name });
  });
});

describe("KeyFunc", () => {
  it("builds keys from objects as KeyFuncObj does", () => {
    expect(
      keyFuncObj({ apiVersion: "v1", kind: "Pod", metadata: { namespace: "default", name: "nginx" } }),
    ).toBe("/core/v1/pods/default/nginx");
    expect(keyFuncObj({ apiVersion: "v1", kind: "Node", metadata: { name: "edge-1" } })).toBe(
      "/core/v1/nodes/null/edge-1",
    );
    expect(
      keyFuncObj({
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { namespace: "kube-system", name: "" },
      }),
    ).toBe("/apps/v1/deployments/kube-system/");
    expect(
      keyFuncObj({
        apiVersion: "discovery.k8s.io/v1",
        kind: "EndpointSlice",
        metadata: { namespace: "a", name: "b" },
      }),
    ).toBe("/discovery.k8s.io/v1/endpointslices/a/b");
  });

  it("guesses resources from kinds as UnsafeGuessKindToResource does", () => {
    expect(
      ["Pod", "Endpoints", "Ingress", "NetworkPolicy", "Service", "ConfigMap"].map(kindToResource),
    ).toEqual(["pods", "endpoints", "ingresses", "networkpolicies", "services", "configmaps"]);
  });

  it("returns an empty key when it cannot build one", () => {
    expect(keyFunc({ apiVersion: "v1", metadata: { name: "x" } })).toBe("");
    expect(() => keyFuncObj({ apiVersion: "v1" })).toThrow(/no kind/);
  });
});
