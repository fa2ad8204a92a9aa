// Prefix stability between a boundary's two requests: first differing block, its diff and size, and cache_control markers.
import { describe, expect, it } from "vitest";
import { maskNotifications } from "../../checker/notifications.ts";
import { comparePrefix, type PrefixOptions } from "../../checker/prefix.ts";
import { SHORT_HEADER, afterResumeBody, beforeIdleBody, type SubBodyOptions } from "../fixtures/notifications/bodies.ts";

const labels: PrefixOptions = { beforeLabel: "req 6", afterLabel: "req 8" };
const compare = (a: SubBodyOptions, b: SubBodyOptions, options: Partial<PrefixOptions> = {}) =>
  comparePrefix(beforeIdleBody(a), afterResumeBody(b), { ...labels, ...options });

describe("comparePrefix", () => {
  it("finds no difference when B re-sends A's prefix byte for byte", () => {
    const result = compare({}, {});
    expect(result.difference).toBeNull();
    // 2 tools + 2 system blocks + A's 8 messages.
    expect(result.unitsCompared).toBe(12);
  });

  it("compares raw bytes unless told the two requests come from different runs", () => {
    const a = { cch: "1a2b3", date: "2026-11-30" };
    const b = { cch: "9f8e7", date: "2026-12-01" };
    expect(compare(a, b).difference).toMatchObject({ block: "system[0]", path: "system[0].text" });
    expect(compare(a, b, { acrossRuns: {} }).difference).toBeNull();
  });

  it("names the changed tool and diffs its description", () => {
    const d = compare({}, { bashDescription: "Executes a bash command and returns its output." }).difference;
    expect(d).toMatchObject({ block: "tools[0]", path: "tools[0].description", beforeAbsent: false, afterAbsent: false });
    expect(d?.delta).toBe(Buffer.byteLength("Executes a given bash command and returns its output.") - Buffer.byteLength("Executes a bash command and returns its output."));
    expect(d?.diff).toContain("-Executes a given bash command and returns its output.");
    expect(d?.diff).toContain("+Executes a bash command and returns its output.");
    expect(d?.diff).toContain("--- tools[0].description\treq 6");
  });

  it("sees a re-rendered notification as a message difference unless it is masked", () => {
    const unmasked = compare({}, { header: SHORT_HEADER }).difference;
    expect(unmasked).toMatchObject({ block: "messages[5]", path: "messages[5].content[0].text", delta: 446 });
    expect(compare({}, { header: SHORT_HEADER }, { mask: maskNotifications }).difference).toBeNull();
  });

  it("reports a message B no longer has, and the shift it causes", () => {
    const d = compare({}, { header: null }, { mask: maskNotifications }).difference;
    expect(d?.block).toBe("messages[5]");
    // The masked notification's message is gone, so B's next message sits at its index.
    expect(d?.diff).toContain('-      "text": "⟦task-notification bpaosrtto⟧",');
    expect(d?.diff).toContain('+  "role": "assistant"');
  });

  it("reports a shared message missing from a shorter B as absent", () => {
    const a = beforeIdleBody();
    const b = { ...a, messages: a.messages.slice(0, 6) };
    const d = comparePrefix(a, b, labels).difference;
    expect(d).toMatchObject({ block: "messages[6]", path: "messages[6]", afterAbsent: true, bytesAfter: 0 });
    expect(d?.diff).toContain("req 8 (absent)");
  });

  it("ignores cache_control when comparing, and lists the markers on each side", () => {
    const result = compare({ systemMarker: 1 }, { systemMarker: 0 });
    expect(result.difference).toBeNull();
    expect(result.markersBefore.map((m) => m.path)).toEqual(["system[1]", "messages[7].content[0]"]);
    expect(result.markersAfter.map((m) => m.path)).toEqual(["system[0]"]);
    expect(result.markerChanges.added.map((m) => m.path)).toEqual(["system[0]"]);
    expect(result.markerChanges.removed.map((m) => m.path)).toEqual(["system[1]"]);
  });

  it("treats the message marker moving to B's new messages as the expected roll, not a change", () => {
    const result = compare({}, {});
    expect(result.markerChanges).toEqual({ added: [], removed: [], changed: [] });
    expect(result.rolled.from.map((m) => m.path)).toEqual(["messages[7].content[0]"]);
    expect(result.rolled.to.map((m) => m.path)).toEqual(["messages[9].content[0]"]);
  });

  it("reports a changed marker value (e.g. a ttl added)", () => {
    const a = beforeIdleBody();
    const b = structuredClone(a);
    (b.system as { cache_control?: unknown }[])[1]!.cache_control = { type: "ephemeral", ttl: "1h" };
    expect(comparePrefix(a, b, labels).markerChanges.changed).toEqual([
      { path: "system[1]", before: '{"type":"ephemeral"}', after: '{"ttl":"1h","type":"ephemeral"}' },
    ]);
  });

  it("does not count object key order as a change", () => {
    const a = beforeIdleBody();
    const b = structuredClone(a);
    b.tools = (a.tools ?? []).map((t) => Object.fromEntries(Object.entries(t as object).reverse()));
    expect(comparePrefix(a, b, labels).difference).toBeNull();
  });
});
