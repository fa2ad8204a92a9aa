#!/usr/bin/env sh
":" //; exec node --no-memory-reducer "$0" "$@"
// The two lines above are shell and JavaScript at once: run as a program (the package's bin link, as npx and npm scripts reach it) the shell
// starts node with a V8 flag, which `#!/usr/bin/env node` cannot pass portably; read by node they are a string and a
// comment. V8's memory reducer runs full collections some 8 s after start-up's first one, while a run waits on claude:
// ~70 ms of CPU per run, for memory the process gives back when it exits (docs/startup.md). Only the command line
// turns it off: v8.setFlagsFromString once node runs does not. `node bin/ccrepro.mjs` runs the same, with the reducer.
// Entry point: the compiled CLI, bundled in dist/bundle/ (npm's `prepare` builds it; an installed package ships it). Without a
// build, or in a checkout whose sources changed since it, the TypeScript sources run through tsx instead.
import fs from "node:fs";
import { builtIsCurrent } from "./build-state.mjs";

// For `ccrepro bench`: when node has started and reached this file (core/phases.ts writes the later marks).
const mark = (name) => process.env.CCREPRO_PHASES && fs.appendFileSync(process.env.CCREPRO_PHASES, `${name} ${performance.timeOrigin + performance.now()}\n`);
const startedAt = performance.timeOrigin;
if (process.env.CCREPRO_PHASES) fs.appendFileSync(process.env.CCREPRO_PHASES, `node-start ${startedAt}\n`);
mark("node-ready");
const root = new URL("../", import.meta.url);
const { main } = await (builtIsCurrent(root) ? import("../dist/bundle/main.js") : fromSource());
const code = await main(process.argv.slice(2));
// Exit as soon as the output is out, rather than when the event loop drains: a keep-alive socket left in a
// dependency's agent pool (pacote's, after a registry read) held the process open for minutes after its verdict,
// and those pools are private to the libraries. Every command awaits its own work (children ended, files written)
// before main() returns, so nothing of ours is cut short; mock and nightly return only once stopped.
process.exitCode = code;
mark("exiting");
process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));

async function fromSource() {
  const { register } = await import("tsx/esm/api");
  register();
  return import("../cli/main.ts");
}
