// What `ccrepro new` writes: a starting scenario of one bug shape (examples/templates/, each GREEN as written on a
// recent release), or a built-in's file re-pointed at the public entries, under the user's name.
import fs from "node:fs";
import { fileURLToPath } from "node:url";

// The bug shapes a template is written for, the first being the default.
export const TEMPLATE_KINDS = ["headless", "multi-session", "hook-decision", "file-effect", "api-fault", "terminal"] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export function templateFile(kind: TemplateKind): string {
  return fileURLToPath(new URL(`../examples/templates/${kind}.ts`, import.meta.url));
}

// A template is a real scenario named `template-<kind>`: every mention of that name becomes the user's.
export function scenarioTemplate(name: string, kind: TemplateKind = "headless"): string {
  return fs.readFileSync(templateFile(kind), "utf8").replaceAll(`template-${kind}`, name);
}

// A built-in's own file, importing "ccrepro" and "ccrepro/checkers" instead of the checkout's kit, under the new name.
export function copyOfBuiltin(builtin: string, name: string): string {
  const file = fileURLToPath(new URL(`../scenarios/${builtin}.ts`, import.meta.url));
  return fs
    .readFileSync(file, "utf8")
    .replace(/from "\.\.\/kit\/index\.ts"/g, 'from "ccrepro"')
    .replace(/from "\.\.\/kit\/checkers\.ts"/g, 'from "ccrepro/checkers"')
    .replace(`name: "${builtin}"`, `name: "${name}"`);
}
