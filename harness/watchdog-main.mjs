// The watchdog process (see watchdog.ts): waits for its stdin to close, then reaps the run's marked processes.
// Plain .mjs: from dist/ (a build, an installed package) it loads the compiled module beside it; from the sources it
// loads TypeScript through tsx, as bin/ccrepro.mjs does.
import fs from "node:fs";

const [name, value] = process.argv.slice(2);
// A terminal's Ctrl-C or hang-up is ccrepro's to handle; the watchdog waits for the pipe alone.
for (const signal of ["SIGINT", "SIGHUP", "SIGTERM"]) process.on(signal, () => {});
let closed = false;
const reap = async () => {
  if (closed) return;
  closed = true;
  const { reapRun } = await importProcesses();
  await reapRun({ name, value }, [], 10_000);
  process.exit(0);
};
process.stdin.on("end", reap);
process.stdin.on("close", reap);
process.stdin.on("error", reap);
process.stdin.resume();

async function importProcesses() {
  if (fs.existsSync(new URL("./processes.js", import.meta.url))) return import("./processes.js");
  const { register } = await import("tsx/esm/api");
  register();
  return import("./processes.ts");
}
