// Inside the confined child: blocks the network where no namespace did, loads the scenario file, judges the run
// directory with it, and sends the result back. Nothing here runs in the ccrepro process itself.
import { createRequire, syncBuiltinESMExports } from "node:module";
import { pathToFileURL } from "node:url";
import type { CheckResult } from "../core/verdict.ts";

export interface CheckJob {
  runDir: string;
  // The scenario file to judge with (the run directory's copy, or one given with --scenario), and the name shown for it.
  file: string;
  shown: string;
  // Patch node:net, node:dgram and node:dns so the check cannot reach the network (no network namespace was had).
  blockNetwork: boolean;
}

// `check`: the scenario's check alone; the parent adds the run's own evidence and the cache audit.
export type CheckReply = { ok: true; name: string; check: CheckResult } | { ok: false; message: string };

function refuseNetwork(): never {
  throw Object.assign(new Error("a scenario's check may not use the network (ccrepro runs it confined; see docs/faults.md)"), { code: "ERR_ACCESS_DENIED" });
}

// Node 20's permission model leaves the network open; these are the module entries every socket, fetch and lookup
// passes. A worker thread would get fresh copies of them, so workers are refused too (the module hooks' own thread
// started before this runs).
function blockNetwork(): void {
  const require = createRequire(import.meta.url);
  const net = require("node:net") as typeof import("node:net");
  const dgram = require("node:dgram") as typeof import("node:dgram");
  const dns = require("node:dns") as typeof import("node:dns");
  const workers = require("node:worker_threads") as { Worker: unknown };
  workers.Worker = refuseNetwork;
  net.Socket.prototype.connect = refuseNetwork;
  net.Server.prototype.listen = refuseNetwork;
  dgram.Socket.prototype.bind = refuseNetwork;
  dgram.Socket.prototype.send = refuseNetwork;
  Object.assign(dns, { lookup: refuseNetwork });
  dns.promises.lookup = refuseNetwork;
  Object.assign(dns.Resolver.prototype, { resolve: refuseNetwork });
  dns.promises.Resolver.prototype.resolve = refuseNetwork;
  globalThis.fetch = refuseNetwork;
  // `import { connect } from "node:net"` and the like read the ESM view of these modules: bring it up to date.
  syncBuiltinESMExports();
}

async function judge(job: CheckJob): Promise<CheckReply> {
  if (job.blockNetwork) blockNetwork();
  // Imported after the network is blocked: the scenario file is loaded by these.
  const { loadScenarioFile } = await import("./scenario-source.ts");
  const { scenarioCheckOfRun } = await import("./check-recorded-run.ts");
  try {
    const scenario = await loadScenarioFile(job.file, job.shown, (file) => import(pathToFileURL(file).href));
    return { ok: true, name: scenario.name, check: scenarioCheckOfRun(job.runDir, scenario, job.shown) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

process.once("message", (job: CheckJob) => {
  void judge(job).then((reply) => process.send?.(reply, () => process.exit(0)));
});
