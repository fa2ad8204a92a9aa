// `ccrepro new NAME --kind K` writes a template under the user's name that loads as a scenario of its own (the
// templates' verdicts on a real release are in test/examples/kit-examples.e2e.test.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scenarioTemplate, TEMPLATE_KINDS } from "../../cli/scenario-template.ts";
import { loadScenario } from "../../pipeline/scenario-source.ts";

describe("the templates of ccrepro new --kind", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-templates-"));

  it.each(TEMPLATE_KINDS)("%s loads under the user's name, with no trace of the template's", async (kind) => {
    const text = scenarioTemplate(`my-${kind}-bug`, kind);
    expect(text).not.toContain(`template-${kind}`);
    const file = path.join(dir, `my-${kind}-bug.ts`);
    fs.writeFileSync(file, text);
    const scenario = await loadScenario(file);
    expect(scenario.name).toBe(`my-${kind}-bug`);
    expect(scenario.steps(scenario.params.parse({})).length).toBeGreaterThan(0);
    expect(scenario.findings.length).toBeGreaterThan(0);
  });
});
