// The public entries are a promise: every export of "ccrepro" and "ccrepro/checkers" carries a doc comment an
// editor shows, nothing internal leaks out, and the type checker refuses a step on a session the scenario does not
// declare. Read with the project's own TypeScript compiler, as an editor reads them.
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.join(import.meta.dirname, "..", "..");
const ENTRIES = { ccrepro: path.join(root, "kit/index.ts"), "ccrepro/checkers": path.join(root, "kit/checkers.ts") };
const OPTIONS: ts.CompilerOptions = {
  allowImportingTsExtensions: true,
  noEmit: true,
  strict: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  skipLibCheck: true,
  types: [],
};

// One host for every program here: the kit, zod and the libs are parsed once, not once per program.
const parsed = new Map<string, ts.SourceFile | undefined>();
function cachingHost(inMemory?: { file: string; source: string }): ts.CompilerHost {
  const host = ts.createCompilerHost(OPTIONS);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => {
    if (inMemory && path.resolve(name) === inMemory.file) return ts.createSourceFile(name, inMemory.source, version);
    if (!parsed.has(name)) parsed.set(name, read(name, version, ...rest));
    return parsed.get(name);
  };
  return host;
}

// Each export of an entry with its doc comment ("" when none); exports from dependencies (zod's `z`) keep their own.
function exportsOf(program: ts.Program, file: string): { name: string; doc: string; fromDependency: boolean; deprecated: boolean }[] {
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declaration = target.declarations?.[0];
    return {
      name: symbol.name,
      doc: ts.displayPartsToString(target.getDocumentationComment(checker)).trim(),
      fromDependency: !!declaration?.getSourceFile().fileName.includes("node_modules"),
      deprecated: target.getJsDocTags(checker).some((tag) => tag.name === "deprecated"),
    };
  });
}

describe("the public entries", () => {
  const program = ts.createProgram(Object.values(ENTRIES), OPTIONS, cachingHost());

  it.each(Object.entries(ENTRIES))("%s documents every export", (_entry, file) => {
    const undocumented = exportsOf(program, file).filter((e) => !e.fromDependency && e.doc === "");
    expect(undocumented.map((e) => e.name)).toEqual([]);
  });

  it("keeps the internals out of both entries", () => {
    const names = Object.values(ENTRIES).flatMap((file) => exportsOf(program, file).map((e) => e.name));
    for (const internal of ["scenarioProblems", "stepProblems", "scenarioNeeds", "scenarioDrivers", "clockNow", "flattenSteps", "hookCapture", "isDefinedScenario"]) {
      expect(names, internal).not.toContain(internal);
    }
  });

  it("keeps the author entry small (the old one had 104 names) and the checkers apart", () => {
    const author = exportsOf(program, ENTRIES.ccrepro).map((e) => e.name);
    expect(author.length).toBeLessThanOrEqual(90);
    expect(author).not.toContain("checkTurnGrammar");
    expect(exportsOf(program, ENTRIES["ccrepro/checkers"]).map((e) => e.name)).toContain("resultOf");
  });

  it("has no deprecated name, and no name in both entries (one name, one meaning)", () => {
    const [author, checkers] = [ENTRIES.ccrepro, ENTRIES["ccrepro/checkers"]].map((file) => exportsOf(program, file));
    expect([...author!, ...checkers!].filter((e) => e.deprecated).map((e) => e.name)).toEqual([]);
    const checkerNames = new Set(checkers!.map((e) => e.name));
    expect(author!.map((e) => e.name).filter((name) => checkerNames.has(name))).toEqual([]);
  });
});

describe("typed session handles", () => {
  // A scenario file as a user writes it, compiled in memory against the real kit.
  function diagnosticsOf(source: string): string[] {
    const file = path.join(root, "test/kit/__typed-session__.ts");
    const program = ts.createProgram([file], OPTIONS, cachingHost({ file, source }));
    return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  }

  const scenario = (steps: string) => `
import { conversation, defineScenario, send, session, start, text } from "../../kit/index.ts";
const s1 = session("s1");
const s2 = session("s2");
export default defineScenario({
  name: "typed", summary: "x", source: "x", findings: [],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "M", replies: [text("ok")] } }),
  steps: () => [${steps}],
  check: () => ({ reached: { ok: true }, findings: [] }),
});
void s2;
`;

  it("accepts steps on declared sessions", () => {
    expect(diagnosticsOf(scenario(`start(s1, { prompt: "M hi" }), send(s1, "more")`))).toEqual([]);
  });

  it("rejects a step on a session the scenario does not declare", () => {
    const errors = diagnosticsOf(scenario(`start(s1, { prompt: "M hi" }), send(s2, "more")`));
    expect(errors.join("\n")).toMatch(/"s2"/);
  });
});
