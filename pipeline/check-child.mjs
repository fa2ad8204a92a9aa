// The child process a file scenario's check runs in (see confined-check.ts): installs the TypeScript hooks, then the
// judging module, which reads its job from the IPC channel. Plain .mjs, so no loader is needed first.
import module from "node:module";

const entry = (file) => new URL(`../kit/${file}`, import.meta.url).href;
module.register(new URL("./confined-loader.mjs", import.meta.url).href, { data: { entries: { ccrepro: entry("index.ts"), "ccrepro/checkers": entry("checkers.ts") } } });
await import("./check-child.ts");
