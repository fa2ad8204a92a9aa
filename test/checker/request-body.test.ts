// Reading a logged body: a Messages request parses; anything else is a damaged run and says which request.
import { describe, expect, it } from "vitest";
import { readMessagesBody } from "../../checker/request-body.ts";

const rec = (text: string) => ({ body: () => Buffer.from(text, "utf8") });

describe("readMessagesBody", () => {
  it("parses a Messages request and keeps fields it does not check", () => {
    const body = readMessagesBody(rec('{"system":"s","messages":[{"role":"user","content":"hi"}],"metadata":{"user_id":"u"}}'), 3);
    expect(body.messages).toEqual([{ role: "user", content: "hi" }]);
    expect(body["metadata"]).toEqual({ user_id: "u" });
  });

  it("names the request when the bytes are not JSON or not a Messages request", () => {
    expect(() => readMessagesBody(rec("{oops"), 4)).toThrow(/^request 4: the logged body is not JSON/);
    expect(() => readMessagesBody(rec('{"messages":[{"content":"no role"}]}'), 5)).toThrow(/^request 5: the logged body is not a Messages request/);
  });
});
