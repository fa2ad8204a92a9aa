// The JSON helpers the comparers share, on request-body shapes: null values (stop_sequence, a tool's default), paths
// handed to a string mapper, and cache_control found on the block holding it only.
import { describe, expect, it } from "vitest";
import { findKey, isJsonObject, mapStrings, valueAt, walkStrings, type Json, type PathKey } from "../../checker/json-value.ts";

describe("null in a body", () => {
  it("is not an object: walking, mapping and looking up pass over it", () => {
    const body: Json = { metadata: null, messages: [{ role: "user", content: "go", stop: null }] };
    expect(isJsonObject(null)).toBe(false);
    const seen: string[] = [];
    walkStrings(body, [], (text, keys) => seen.push(`${keys.join("/")}=${text}`));
    expect(seen).toEqual(["messages/0/role=user", "messages/0/content=go"]);
    expect(mapStrings(body, [], (text) => text.toUpperCase())).toEqual({ metadata: null, messages: [{ role: "USER", content: "GO", stop: null }] });
    expect(valueAt(body, ["metadata", "user_id"])).toBeUndefined();
  });
});

describe("mapStrings", () => {
  it("hands the mapper each string's full path, through arrays and objects", () => {
    // The path is how a rule knows it is rewriting metadata.user_id and not a message that mentions one.
    const body: Json = { metadata: { user_id: "u" }, messages: [{ content: [{ type: "text", text: "t" }] }] };
    const paths: PathKey[][] = [];
    const mapped = mapStrings(body, [], (text, keys) => {
      paths.push([...keys]);
      return keys.join(".") === "metadata.user_id" ? "<user-id>" : text;
    });
    expect(paths).toEqual([
      ["metadata", "user_id"],
      ["messages", 0, "content", 0, "type"],
      ["messages", 0, "content", 0, "text"],
    ]);
    expect(mapped).toEqual({ metadata: { user_id: "<user-id>" }, messages: [{ content: [{ type: "text", text: "t" }] }] });
  });
});

describe("findKey", () => {
  it("reports the key's value whole and does not search inside it again", () => {
    // A block whose cache_control value itself holds the key: one breakpoint, not two.
    const body: Json = { system: [{ text: "s", cache_control: { type: "ephemeral", cache_control: "nested" } }] };
    expect(findKey(body, "cache_control", [])).toEqual([{ keys: ["system", 0], value: { type: "ephemeral", cache_control: "nested" } }]);
  });
});
