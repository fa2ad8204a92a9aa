// The unified diff helper: plain hunks, long lines clipped at the change, the line cap, absent text.
import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../checker/text-diff.ts";

const labels = { beforeName: "system[1].text", afterName: "system[1].text", beforeHeader: "req 1", afterHeader: "req 2" };

describe("unifiedDiff", () => {
  it("gives headers, a hunk with a few context lines and no end-of-file marker", () => {
    const before = ["a", "b", "c", "d", "e", "f", "g", "h"].join("\n");
    const diff = unifiedDiff(before, before.replace("e", "E"), labels);
    expect(diff.split("\n")).toEqual([
      "--- system[1].text\treq 1",
      "+++ system[1].text\treq 2",
      "@@ -2,7 +2,7 @@",
      " b",
      " c",
      " d",
      "-e",
      "+E",
      " f",
      " g",
      " h",
    ]);
  });

  it("clips a long changed line around its first differing character, the same way on both sides", () => {
    const before = `${"x".repeat(5000)}OLD${"y".repeat(5000)}`;
    const after = `${"x".repeat(5000)}NEW${"y".repeat(5000)}`;
    const lines = unifiedDiff(before, after, labels).split("\n");
    const minus = lines.find((l) => l.startsWith("-") && !l.startsWith("---"))!;
    const plus = lines.find((l) => l.startsWith("+") && !l.startsWith("+++"))!;
    expect(minus).toContain("OLD");
    expect(plus).toContain("NEW");
    expect(minus.length).toBeLessThan(320);
    expect(minus).toMatch(/^-…\[\d+ chars\]…x+OLDy+…\[\d+ chars\]$/);
    expect(minus.indexOf("OLD")).toBe(plus.indexOf("NEW"));
  });

  it("caps the number of lines and says how many were left out", () => {
    const before = Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n");
    const after = Array.from({ length: 200 }, (_, i) => `LINE ${i}`).join("\n");
    const lines = unifiedDiff(before, after, labels, { context: 3, maxLineChars: 240, maxLines: 10 }).split("\n");
    expect(lines).toHaveLength(11);
    expect(lines[10]).toMatch(/^… \d+ more diff lines$/);
  });

  it("diffs absent text as no lines", () => {
    expect(unifiedDiff("", "x", labels).split("\n").slice(2)).toEqual(["@@ -0,0 +1,1 @@", "+x"]);
  });
});
