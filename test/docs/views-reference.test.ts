// docs/reference/views.md lists the views' fields as the types of `ccrepro/checkers` have them: regenerated from the
// sources with TypeScript's checker (scripts/views-reference.ts), it must equal the checked-in page.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { VIEWS_REFERENCE, viewsReference } from "../../scripts/views-reference.ts";

describe("docs/reference/views.md", () => {
  it("equals what the types make (node --import tsx scripts/views-reference.ts rewrites it)", () => {
    const made = viewsReference();
    expect(made).toMatch(/## ResultLine[\s\S]*\| `subtype` \| `string` \|/);
    expect(made).toMatch(/## RequestView[\s\S]*\| `toolResults` \| `ToolResultBlock\[\]` \| Every tool_result block/);
    expect(fs.readFileSync(VIEWS_REFERENCE, "utf8")).toBe(made);
  }, 60_000);
});
