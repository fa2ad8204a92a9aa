// A response body fed step by step from a generator, which reports exactly once how the response ended.
import type { ResponseEndEntry } from "./log-entry.ts";

export type ResponseOutcome = ResponseEndEntry["outcome"];

export type BodyStep = Uint8Array | { kind: "drop" } | { kind: "stall" };

export interface BodyHooks {
  onEnd(outcome: ResponseOutcome): void;
  // Destroys the client's socket; absent without one (app.request() in tests), where a drop errors the body instead.
  destroyConnection?: () => void;
}

// `produce` gets a signal that aborts when the response ends early, so its waits end with it.
export function trackedBody(
  produce: (signal: AbortSignal) => AsyncIterable<BodyStep>,
  hooks: BodyHooks,
): ReadableStream<Uint8Array> {
  const ended = new AbortController();
  // A stalled or dropped response counts as dropped however it finally goes away.
  let outcomeIfCut: ResponseOutcome = "aborted";
  const end = (outcome: ResponseOutcome) => {
    if (ended.signal.aborted) return;
    ended.abort();
    hooks.onEnd(outcome);
  };
  const whenEnded = new Promise<void>((resolve) => ended.signal.addEventListener("abort", () => resolve(), { once: true }));
  const steps = produce(ended.signal)[Symbol.asyncIterator]();

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: IteratorResult<BodyStep>;
        try {
          next = await steps.next();
        } catch (error) {
          // A wait interrupted because the response already ended is not a failure.
          if (ended.signal.aborted) return;
          throw error;
        }
        if (next.done) {
          controller.close();
          end("complete");
        } else if (next.value instanceof Uint8Array) {
          controller.enqueue(next.value);
        } else if (next.value.kind === "drop") {
          end("dropped");
          if (hooks.destroyConnection) hooks.destroyConnection();
          else controller.error(new Error("mock: scripted connection drop"));
        } else {
          outcomeIfCut = "dropped";
          await whenEnded;
        }
      },
      cancel() {
        end(outcomeIfCut);
      },
    },
    // Pull only when the server asks for more, so "complete" means the last chunk was handed to the socket.
    { highWaterMark: 0 },
  );
}
