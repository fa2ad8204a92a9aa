// A logged /v1/messages request body, parsed and shape-checked at the edge so the comparers can trust it.
import { z } from "zod";
import type { Recordings } from "../harness/recordings.ts";
import type { Json } from "./json-value.ts";

// Anything JSON.parse produced is a Json value; only the outer shape needs checking.
const json = z.custom<Json>(() => true);

const messagesBodySchema = z.looseObject({
  system: z.union([z.string(), z.array(json)]).optional(),
  tools: z.array(json).optional(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.union([z.string(), z.array(json)]) })),
});

export type MessagesBody = z.infer<typeof messagesBodySchema>;
export type Message = MessagesBody["messages"][number];

// Each body's bytes parsed once: a run's wait conditions, checkers and cache audit read the same requests again and
// again (findBoundaries alone on every change of a live run), and a body is up to a few hundred kB of JSON. Keyed by the
// Buffer, which the request log hands out once per body (harness/recordings.ts); callers only read what they get.
const parsedBodies = new WeakMap<Buffer, MessagesBody>();

// Throws when the logged bytes are not a Messages request: the mock only classifies parseable bodies, so this is a damaged run.
export function readMessagesBody(rec: Pick<Recordings, "body">, seq: number): MessagesBody {
  const bytes = rec.body(seq);
  const known = parsedBodies.get(bytes);
  if (known) return known;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new Error(`request ${seq}: the logged body is not JSON (${(error as Error).message})`);
  }
  const result = messagesBodySchema.safeParse(parsed);
  if (!result.success) {
    throw new Error(`request ${seq}: the logged body is not a Messages request (${z.prettifyError(result.error)})`);
  }
  parsedBodies.set(bytes, result.data);
  return result.data;
}
