// The child process a file scenario's check runs in (see confined-check.ts): installs the TypeScript hooks, then the
// judging module, which reads its job from the IPC channel. Plain .mjs, so no loader is needed first.
// It runs from the sources in a checkout and from dist/ in a build or an installed package: beside it are then the
// compiled .js modules, and the kit it hands a scenario file must be the same one the judging module uses.
import fs from "node:fs";
import module from "node:module";

// ccrepro gone (its IPC channel closed): nothing is waiting for the verdict. Where setpriv gave no parent-death
// signal, this is what ends a check that still reaches its event loop.
process.on("disconnect", () => process.exit(1));

const extension = fs.existsSync(new URL("./check-child.js", import.meta.url)) ? "js" : "ts";
const entry = (name) => new URL(`../kit/${name}.${extension}`, import.meta.url).href;
module.register(new URL("./confined-loader.mjs", import.meta.url).href, { data: { entries: { ccrepro: entry("index"), "ccrepro/checkers": entry("checkers") } } });
await import(`./check-child.${extension}`);
