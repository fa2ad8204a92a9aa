// The public kit is a promise: the API reports of both entries (docs/api/ccrepro.api.md, docs/api/checkers.api.md,
// written by API Extractor from the built declarations) are checked in, and this fails when the entries' surface
// changes without its report: run `npm run api` and review the diff of docs/api/ with the change.
import path from "node:path";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";
import { describe, expect, it } from "vitest";

const API = path.join(import.meta.dirname, "..", "..", "docs", "api");

describe("the public entries' API reports", () => {
  it.each(["ccrepro", "checkers"])("docs/api/%s.api.md is the surface the built entry has", (entry) => {
    const config = ExtractorConfig.loadFileAndPrepare(path.join(API, `${entry}.api-extractor.json`));
    const problems: string[] = [];
    const result = Extractor.invoke(config, {
      localBuild: false,
      messageCallback: (message) => {
        if (message.logLevel === "error") problems.push(message.text);
        message.handled = true;
      },
    });
    expect(problems).toEqual([]);
    expect(result.apiReportChanged, `the ${entry} entry's API changed: run \`npm run api\` and review docs/api/${entry}.api.md`).toBe(false);
  }, 60_000);
});
