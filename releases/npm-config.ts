// npm's configuration as npm would apply it, read straight from its files and environment: starting `npm config list`
// costs a node process (0.3–0.7 s measured), and most runs need no registry at all.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// One configuration layer: key → value (a list for `key[] = …` lines).
export type NpmConfig = Record<string, string | string[]>;

// Where npm reads its layers from, lowest precedence first. Overridable for tests.
export interface NpmConfigSources {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  home?: string;
  // npm's global prefix; defaults to the one node was installed under, as npm's own default is.
  prefix?: string;
}

// An .npmrc's text as npm's ini reader takes it: `key = value`, `;`/`#` comments, `${VAR}` from the environment,
// quoted values, `key[] = value` lists; [sections] are not used by npm and are skipped.
export function parseNpmrc(text: string, env: NodeJS.ProcessEnv = process.env): NpmConfig {
  const config: NpmConfig = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith(";") || line.startsWith("#") || line.startsWith("[")) continue;
    const eq = line.indexOf("=");
    const rawKey = (eq === -1 ? line : line.slice(0, eq)).trim();
    let value = eq === -1 ? "true" : line.slice(eq + 1).trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    value = expand(value, env);
    const key = expand(rawKey, env);
    if (key.endsWith("[]")) {
      const list = config[key.slice(0, -2)];
      config[key.slice(0, -2)] = [...(Array.isArray(list) ? list : []), value];
    } else config[key] = value;
  }
  return config;
}

// ${VAR} and ${VAR?} as npm expands them; an unset variable without `?` stays as written, as npm leaves it.
function expand(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(/(\\*)\$\{([^}?]+)(\?)?\}/g, (whole, slashes: string, name: string, optional?: string) => {
    if (slashes.length % 2 === 1) return whole.slice(1);
    const value = env[name];
    return value !== undefined ? slashes + value : optional ? slashes : whole;
  });
}

function readNpmrc(file: string, env: NodeJS.ProcessEnv): NpmConfig {
  try {
    return parseNpmrc(fs.readFileSync(file, "utf8"), env);
  } catch {
    return {};
  }
}

// npm's local prefix: the nearest folder up from cwd with a package.json or node_modules.
function localPrefix(cwd: string): string {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json")) || fs.existsSync(path.join(dir, "node_modules"))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(cwd);
  }
}

// The environment's npm_config_* variables (npm itself sets them for scripts it runs), keys lower-cased as npm does.
function envLayer(env: NodeJS.ProcessEnv): NpmConfig {
  const config: NpmConfig = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !/^npm_config_/i.test(name)) continue;
    const key = name.slice("npm_config_".length).toLowerCase();
    // npm reads npm_config_foo_bar as foo-bar, except for keys that start with // or @scope (left as they are).
    config[key.startsWith("//") || key.startsWith("@") ? key : key.replace(/_/g, "-")] = value;
  }
  return config;
}

// The merged configuration: global npmrc, then user npmrc, then the project's, then npm_config_* variables.
export function readNpmConfig(sources: NpmConfigSources = {}): NpmConfig {
  const env = sources.env ?? process.env;
  const cwd = sources.cwd ?? process.cwd();
  const fromEnv = envLayer(env);
  const home = sources.home ?? os.homedir();
  const prefix = sources.prefix ?? str(fromEnv["prefix"]) ?? path.dirname(path.dirname(process.execPath));
  const globalFile = str(fromEnv["globalconfig"]) ?? path.join(prefix, "etc", "npmrc");
  const userFile = str(fromEnv["userconfig"]) ?? path.join(home, ".npmrc");
  const projectFile = path.join(localPrefix(cwd), ".npmrc");
  const layers = [readNpmrc(globalFile, env), readNpmrc(userFile, env)];
  // npm does not read the project file twice when it is the user file.
  if (path.resolve(projectFile) !== path.resolve(userFile)) layers.push(readNpmrc(projectFile, env));
  layers.push(fromEnv);
  return Object.assign({}, ...layers) as NpmConfig;
}

function str(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.at(-1) : value;
}

// The pacote options npm's configuration amounts to (registry, scoped registries, per-registry auth, TLS, proxies).
export function pacoteOptionsFrom(config: NpmConfig, readFile: (file: string) => string): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    // Scoped registries and per-registry credentials (//host/:_authToken) pass through as npm-registry-fetch reads them.
    if ((key.startsWith("@") && key.endsWith(":registry")) || key.startsWith("//")) options[key] = str(value);
  }
  const get = (key: string) => str(config[key]);
  if (get("registry")) options["registry"] = get("registry");
  if (get("cache")) options["cache"] = `${get("cache")}/_cacache`;
  const ca = config["ca"];
  if (ca) options["ca"] = ca;
  else if (get("cafile")) options["ca"] = readFile(get("cafile")!);
  const strict = get("strict-ssl");
  if (strict !== undefined) options["strictSSL"] = strict !== "false";
  if (get("proxy")) options["proxy"] = get("proxy");
  if (get("https-proxy")) options["httpsProxy"] = get("https-proxy");
  const noProxy = config["noproxy"] ?? config["no-proxy"];
  if (noProxy) options["noProxy"] = [noProxy].flat().join(",");
  return options;
}
