// The recording proxy's cost: added latency per SSE event (median, p99) and time to first byte, recorded vs direct,
// against a loopback upstream that streams events at a steady pace. Usage: npx tsx scripts/bench-record-proxy.ts [EVENTS] [ROUNDS]
import http from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { startRecordingProxy } from "../mock-api/recorder.ts";

const EVENTS = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 5);
const GAP_MS = 2;

// Each event carries the time it was written; the reader's clock is the same process's.
const upstream = http.createServer(async (_req, res) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (let i = 0; i < EVENTS; i++) {
    res.write(`event: content_block_delta\ndata: {"type":"content_block_delta","i":${i},"t":${performance.now()}}\n\n`);
    await sleep(GAP_MS);
  }
  res.end();
});
await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
const proxy = await startRecordingProxy({ upstream: upstreamUrl });

async function stream(base: string): Promise<{ ttfbMs: number; delays: number[] }> {
  const started = performance.now();
  const response = await fetch(`${base}/v1/messages`, { method: "POST", body: "{}" });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  let ttfbMs = -1;
  const delays: number[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const now = performance.now();
    if (ttfbMs < 0) ttfbMs = now - started;
    pending += decoder.decode(value, { stream: true });
    for (let end = pending.indexOf("\n\n"); end !== -1; end = pending.indexOf("\n\n")) {
      const t = /"t":([\d.]+)/.exec(pending.slice(0, end))?.[1];
      if (t) delays.push(now - Number(t));
      pending = pending.slice(end + 2);
    }
  }
  return { ttfbMs, delays };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

const direct = { ttfb: [] as number[], delays: [] as number[] };
const recorded = { ttfb: [] as number[], delays: [] as number[] };
// Interleaved, so drift in the machine's load hits both alike.
for (let round = 0; round < ROUNDS; round++) {
  for (const [base, into] of [[upstreamUrl, direct], [proxy.url, recorded]] as const) {
    const { ttfbMs, delays } = await stream(base);
    into.ttfb.push(ttfbMs);
    into.delays.push(...delays);
  }
}
const line = (name: string, s: typeof direct) =>
  `${name.padEnd(9)} per-event delay median ${quantile(s.delays, 0.5).toFixed(3)} ms, p99 ${quantile(s.delays, 0.99).toFixed(3)} ms; time to first byte median ${quantile(s.ttfb, 0.5).toFixed(2)} ms`;
console.log(`${ROUNDS} rounds of ${EVENTS} SSE events ${GAP_MS} ms apart, one process, loopback`);
console.log(line("direct", direct));
console.log(line("recorded", recorded));
console.log(
  `added by the recording proxy: median ${(quantile(recorded.delays, 0.5) - quantile(direct.delays, 0.5)).toFixed(3)} ms, p99 ${(quantile(recorded.delays, 0.99) - quantile(direct.delays, 0.99)).toFixed(3)} ms per event; ` +
    `time to first byte ${(quantile(recorded.ttfb, 0.5) - quantile(direct.ttfb, 0.5)).toFixed(2)} ms`,
);
console.log(`recorded ${proxy.recording().exchanges.reduce((n, e) => n + (e.response?.sse?.length ?? 0), 0)} events`);
await proxy.close();
upstream.close();
