// Writes docs/reference/views.md: the fields of the typed views a check reads (requests, messages, tool results,
// results, …), each with its type and doc comment, made by TypeScript's own checker from `ccrepro/checkers` as users
// import it, so the list cannot drift from the types (zod-inferred ones included, which a doc generator shows only as
// `z.infer<…>`). `node --import tsx scripts/views-reference.ts`; test/docs/views-reference.test.ts fails while the
// checked-in page differs.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const ROOT = path.join(import.meta.dirname, "..");
export const VIEWS_REFERENCE = path.join(ROOT, "docs", "reference", "views.md");
const ENTRY = path.join(ROOT, "kit", "checkers.ts");

// The view types a check reads fields of, in the order a reader meets them.
const VIEWS = ["RequestView", "RequestMessage", "ToolUseBlock", "ToolResultBlock", "ResultLine", "InitLine", "SystemLine", "HookCall", "HookPayload", "HookAnswerRecord", "WorkdirFile", "ScreenCapture", "TranscriptRow"];

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").replaceAll("|", "\\|").trim();

/** The page's text, made from the current sources. */
export function viewsReference(): string {
  const options: ts.CompilerOptions = { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, allowImportingTsExtensions: true, noEmit: true, skipLibCheck: true };
  const program = ts.createProgram([ENTRY], options);
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(ENTRY);
  if (!entry) throw new Error(`cannot read ${ENTRY}`);
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(entry)!);
  const sections = VIEWS.map((name) => {
    const exported = exports.find((symbol) => symbol.name === name);
    if (!exported) throw new Error(`ccrepro/checkers exports no ${name}: update VIEWS in scripts/views-reference.ts`);
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    const doc = oneLine(ts.displayPartsToString(exported.getDocumentationComment(checker)) || ts.displayPartsToString(symbol.getDocumentationComment(checker)));
    const rows = checker.getPropertiesOfType(type).map((property) => {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      const propertyType = declaration ? checker.getTypeOfSymbolAtLocation(property, declaration) : checker.getTypeOfSymbol(property);
      const optional = property.flags & ts.SymbolFlags.Optional ? "?" : "";
      const typeText = checker.typeToString(propertyType, undefined, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope);
      return `| \`${property.name}${optional}\` | \`${oneLine(typeText).replaceAll("`", "'")}\` | ${oneLine(ts.displayPartsToString(property.getDocumentationComment(checker)))} |`;
    });
    return [`## ${name}`, "", doc, "", "| field | type | what it is |", "| --- | --- | --- |", ...rows, ""].join("\n");
  });
  return [
    "# The views' fields",
    "",
    "Generated from the types of `ccrepro/checkers` by `scripts/views-reference.ts` (TypeScript's checker); do not edit by",
    "hand. A test fails while this page differs from the types. How to use the views: [../kit.md](../kit.md#what-a-check-reads).",
    "",
    ...sections,
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  fs.mkdirSync(path.dirname(VIEWS_REFERENCE), { recursive: true });
  fs.writeFileSync(VIEWS_REFERENCE, viewsReference());
  console.log(`wrote ${path.relative(ROOT, VIEWS_REFERENCE)}`);
}
