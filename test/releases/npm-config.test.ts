// npm's configuration, read from its files and environment without starting npm.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pacoteOptionsFrom, parseNpmrc, readNpmConfig } from "../../releases/npm-config.ts";

describe("parseNpmrc", () => {
  it("reads keys, comments, quotes, lists and ${VAR} as npm's ini reader does", () => {
    const text = [
      "; a comment",
      "# another",
      "registry = https://mirror.example/npm/",
      "@corp:registry=https://corp.example/",
      "//corp.example/:_authToken=${CORP_TOKEN}",
      'cache="/var/cache/npm"',
      "ca[]=one",
      "ca[]=two",
      "missing=${NOT_SET}",
      "optional=${NOT_SET?}",
      "[section]",
    ].join("\n");
    expect(parseNpmrc(text, { CORP_TOKEN: "t0k" })).toEqual({
      registry: "https://mirror.example/npm/",
      "@corp:registry": "https://corp.example/",
      "//corp.example/:_authToken": "t0k",
      cache: "/var/cache/npm",
      ca: ["one", "two"],
      missing: "${NOT_SET}",
      optional: "",
    });
  });
});

describe("readNpmConfig", () => {
  it("layers global, user, project and npm_config_* variables in npm's order", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-npmrc-"));
    const prefix = path.join(root, "prefix");
    const home = path.join(root, "home");
    const project = path.join(root, "project");
    fs.mkdirSync(path.join(prefix, "etc"), { recursive: true });
    fs.mkdirSync(home);
    fs.mkdirSync(path.join(project, "sub"), { recursive: true });
    fs.writeFileSync(path.join(prefix, "etc", "npmrc"), "registry=https://global.example/\nproxy=http://proxy.example:3128\n");
    fs.writeFileSync(path.join(home, ".npmrc"), "registry=https://user.example/\nstrict-ssl=false\n");
    fs.writeFileSync(path.join(project, "package.json"), "{}");
    fs.writeFileSync(path.join(project, ".npmrc"), "registry=https://project.example/\n");
    const files = readNpmConfig({ env: {}, cwd: path.join(project, "sub"), home, prefix });
    expect(files).toMatchObject({ registry: "https://project.example/", proxy: "http://proxy.example:3128", "strict-ssl": "false" });
    const env = readNpmConfig({ env: { npm_config_registry: "http://127.0.0.1:9/", NPM_CONFIG_HTTPS_PROXY: "http://p:1" }, cwd: project, home, prefix });
    expect(env).toMatchObject({ registry: "http://127.0.0.1:9/", "https-proxy": "http://p:1" });
    expect(pacoteOptionsFrom(files, () => "")).toEqual({ registry: "https://project.example/", strictSSL: false, proxy: "http://proxy.example:3128" });
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("hands pacote the scoped registries, per-registry credentials and the cafile's certificates", () => {
    const options = pacoteOptionsFrom(
      { "@corp:registry": "https://corp.example/", "//corp.example/:_authToken": "t", cafile: "/etc/ca.pem", cache: "/c", noproxy: "localhost" },
      (file) => `PEM from ${file}`,
    );
    expect(options).toEqual({
      "@corp:registry": "https://corp.example/",
      "//corp.example/:_authToken": "t",
      ca: "PEM from /etc/ca.pem",
      cache: "/c/_cacache",
      noProxy: "localhost",
    });
  });
});
