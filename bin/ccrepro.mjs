#!/usr/bin/env node
// Entry point: loads the TypeScript CLI through tsx so the package runs from source without a build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/main.ts");
const code = await main(process.argv.slice(2));
// Exit as soon as the output is out, rather than when the event loop drains: a keep-alive socket left in a
// dependency's agent pool (pacote's, after a registry read) held the process open for minutes after its verdict,
// and those pools are private to the libraries. Every command awaits its own work (children ended, files written)
// before main() returns, so nothing of ours is cut short; mock and nightly return only once stopped.
process.exitCode = code;
process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
