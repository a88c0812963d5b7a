import { type LeftOut, leftOutNews } from "@fleet-auditor/audit";
import { describe, expect, it } from "vitest";

// Left-out findings (those a run cannot keep) are told once while they persist: remembered by
// digest between runs, forgotten when they go away, told again when they come back.

const left = (digest: string): LeftOut => ({
  key: `key-${digest}`,
  reason: "cannot be stored: too long",
  digest,
});

describe("leftOutNews", () => {
  it("tells every left-out finding the first time and remembers each as told", () => {
    const news = leftOutNews([left("a"), left("b")], []);
    expect(news.tell.map((l) => l.digest)).toEqual(["a", "b"]);
    expect(news.remember).toEqual(["a", "b"]);
  });

  it("does not tell again what was told before, and keeps remembering it while it persists", () => {
    const news = leftOutNews([left("a"), left("b")], ["a"]);
    expect(news.tell.map((l) => l.digest)).toEqual(["b"]);
    expect(news.remember).toEqual(["a", "b"]);
  });

  it("forgets what no longer is left out, so that it is told again if it comes back", () => {
    const gone = leftOutNews([left("b")], ["a", "b"]);
    expect(gone).toEqual({ tell: [], remember: ["b"] });
    const back = leftOutNews([left("a"), left("b")], gone.remember);
    expect(back.tell.map((l) => l.digest)).toEqual(["a"]);
  });

  it("tells a finding left out twice in one run once", () => {
    const news = leftOutNews([left("a"), left("a")], []);
    expect(news.tell).toHaveLength(1);
    expect(news.remember).toEqual(["a"]);
  });

  it("remembers at most a thousand, the first ones", () => {
    const many = Array.from({ length: 1_005 }, (_, i) => left(`d${i}`));
    const news = leftOutNews(many, []);
    expect(news.tell).toHaveLength(1_005);
    expect(news.remember).toHaveLength(1_000);
    expect(news.remember.at(-1)).toBe("d999");
  });
});
