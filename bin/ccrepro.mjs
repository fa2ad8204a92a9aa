#!/usr/bin/env node
// Entry point: loads the TypeScript CLI through tsx so the package runs from source without a build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
