// The cross-run rules one by one: every regex metacharacter of a run path taken literally, the order and scope of each rule, and each rule's look-alikes left alone.
import { describe, expect, it } from "vitest";
import { CROSS_RUN_RULES, normaliseAcrossRuns, runPathsOf, type NormaliseContext } from "../../checker/cross-run-normalise.ts";
import { runLayout } from "../../harness/run-layout.ts";

const rule = (name: string) => {
  const found = CROSS_RUN_RULES.find((r) => r.name === name);
  if (!found) throw new Error(`no rule ${name}`);
  return found;
};
const runPaths = (prefix: string): NormaliseContext => ({ runPaths: [{ prefix, placeholder: "<p>" }] });

describe("run-paths: a prefix is matched literally", () => {
  // Each metacharacter in a directory name, and text the same name would match were it read as a pattern.
  it.each([
    ["/r*", "/r* /r/", "<p> /r/"],
    ["/r+", "/r+ /r", "<p> /r"],
    ["/r?", "/r? /r", "<p> /r"],
    ["/a^b", "/a^b", "<p>"],
    ["/a$b", "/a$b", "<p>"],
    ["/a{2}", "/a{2} /aa", "<p> /aa"],
    ["/a(b)", "/a(b) /ab", "<p> /ab"],
    ["/a|b", "/a|b b", "<p> b"],
    ["/a[bc]", "/a[bc] /ab", "<p> /ab"],
    ["/a\\d", "/a\\d /a5", "<p> /a5"],
    ["/a.b", "/a.b /aXb", "<p> /aXb"],
  ])("prefix %j in %j → %j", (prefix, text, out) => {
    expect(rule("run-paths").apply(text, runPaths(prefix))).toBe(out);
  });

  it("replaces every occurrence, longest prefix first, whatever order the paths are given in", () => {
    const ctx = {
      runPaths: [
        { prefix: "/r", placeholder: "<run>" },
        { prefix: "/r/iso/work", placeholder: "<work>" },
        { prefix: "/r/iso", placeholder: "<iso>" },
      ],
    };
    expect(rule("run-paths").apply("/r/iso/work/a /r/iso/tmp /r/x /r/iso/work", ctx)).toBe("<work>/a <iso>/tmp <run>/x <work>");
    expect(rule("run-paths").apply("/r/iso/work", { runPaths: [...ctx.runPaths].reverse() })).toBe("<work>");
  });

  it("leaves text alone without run paths, and does not reorder the caller's list", () => {
    expect(rule("run-paths").apply("/r/x", {})).toBe("/r/x");
    const list = [
      { prefix: "/a", placeholder: "<a>" },
      { prefix: "/a/b", placeholder: "<b>" },
    ];
    rule("run-paths").apply("/a/b", { runPaths: list });
    expect(list.map((p) => p.prefix)).toEqual(["/a", "/a/b"]);
  });
});

describe("the value rules", () => {
  it.each([
    ["billing-cch", "cch=abc0 cch=1 cch=", "cch=<cch> cch=<cch> cch="],
    ["billing-cch", "a-cch=ff", "a-cch=<cch>"],
    ["cc-version-hash", "cc_version=1.2.3.ab cc_version=10.20.30.0f", "cc_version=1.2.3.<hash> cc_version=10.20.30.<hash>"],
    ["cc-version-hash", "cc_version=1.2.3.abg cc_version=1.2.ab", "cc_version=1.2.3.abg cc_version=1.2.ab"],
    ["date-phrases", "Today's date is 1 Dec. Then", "Today's date is <date>. Then"],
    ["date-phrases", "Today's date is 2026.12.01.", "Today's date is <date>."],
    ["date-phrases", "The current month is Dec 2026.\nToday's date is x\ny", "The current month is <date>.\nToday's date is <date>\ny"],
    ["iso-dates", "2026-11-30T16:01 2026-11-30T16:01:02 2026-11-30T16:01:02+01:00 2026-11-30T16:01:02-0500", "<date> <date> <date> <date>"],
    ["iso-dates", "2026-11-30 and 1999-01-01", "<date> and <date>"],
    ["total-tokens", "<total_tokens>1 tokens left</total_tokens><total_tokens>22 tokens left</total_tokens>", "<total_tokens><n> tokens left</total_tokens><total_tokens><n> tokens left</total_tokens>"],
    ["uuids", "0F8FAD5B-D9CB-469F-A165-70867728950E and 0f8fad5b-d9cb-469f-a165-70867728950e", "<uuid> and <uuid>"],
    ["request-ids", "req_abcdefgh req_ABC_def_123 req_1234567", "req_<id> req_<id> req_1234567"],
    ["local-ports", "localhost:1 127.0.0.1:65535 localhost:", "localhost:<port> 127.0.0.1:<port> localhost:"],
  ])("%s: %j → %j", (name, text, out) => {
    expect(rule(name).apply(text, {})).toBe(out);
  });

  it("blanks metadata.user_id only at that path", () => {
    expect(rule("metadata-user-id").apply("anything", { jsonPath: "metadata.user_id" })).toBe("<user-id>");
    expect(rule("metadata-user-id").apply("anything", {})).toBe("anything");
    expect(rule("metadata-user-id").apply("anything", { jsonPath: "metadata" })).toBe("anything");
  });
});

describe("normaliseAcrossRuns", () => {
  it("applies every rule in its order, paths first", () => {
    const text = "/runs/2026-11-30T10-00/iso/tmp/x cch=ab cc_version=2.1.3.ff Today's date is 2026-11-30. 0f8fad5b-d9cb-469f-a165-70867728950e req_0123456789 localhost:123 <total_tokens>5 tokens left</total_tokens>";
    expect(normaliseAcrossRuns(text, { runPaths: runPathsOf(runLayout("/runs/2026-11-30T10-00")) })).toBe("<tmp>/x cch=<cch> cc_version=2.1.3.<hash> Today's date is <date>. <uuid> req_<id> localhost:<port> <total_tokens><n> tokens left</total_tokens>");
    expect(normaliseAcrossRuns("x", { jsonPath: "metadata.user_id" })).toBe("<user-id>");
    expect(normaliseAcrossRuns("nothing volatile")).toBe("nothing volatile");
  });

  it("has the rules in the documented order, each described", () => {
    expect(CROSS_RUN_RULES.map((r) => r.name)).toEqual(["run-paths", "billing-cch", "cc-version-hash", "metadata-user-id", "date-phrases", "iso-dates", "total-tokens", "uuids", "request-ids", "local-ports"]);
  });
});
