// Plays a streaming reply's plan as body steps: SSE frames on the wire, with pings while the plan waits.
import { setTimeout as sleep } from "node:timers/promises";
import type { BodyStep } from "./response-body.ts";
import { pingEvent, type PlanStep, type SseEvent } from "./sse-plan.ts";

const encoder = new TextEncoder();

// Framed as the API does: the event name repeats the data's `type`.
export function encodeSse(event: SseEvent): Uint8Array {
  return encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
}

// Pings at fixed offsets from the start of the wait (not "while time is left"), so their count never depends on
// how early or late a timer fires.
async function* pingsWhileWaiting(ms: number, intervalMs: number, signal: AbortSignal): AsyncGenerator<BodyStep> {
  const start = performance.now();
  const untilOffset = (offset: number) => sleep(Math.max(0, start + offset - performance.now()), undefined, { signal });
  const pingCount = Math.ceil(ms / intervalMs) - 1;
  for (let k = 1; k <= pingCount; k++) {
    await untilOffset(k * intervalMs);
    yield encodeSse(pingEvent);
  }
  await untilOffset(ms);
}

export async function* playSsePlan(plan: readonly PlanStep[], signal: AbortSignal): AsyncGenerator<BodyStep> {
  for (const step of plan) {
    if (step.kind === "event") yield encodeSse(step.event);
    else if (step.kind === "wait") yield* pingsWhileWaiting(step.ms, step.intervalMs, signal);
    else yield step;
  }
}
