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

// Throws when the logged bytes are not a Messages request: the mock only classifies parseable bodies, so this is a damaged run.
export function readMessagesBody(rec: Pick<Recordings, "body">, seq: number): MessagesBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rec.body(seq).toString("utf8"));
  } catch (error) {
    throw new Error(`request ${seq}: the logged body is not JSON (${(error as Error).message})`);
  }
  const result = messagesBodySchema.safeParse(parsed);
  if (!result.success) {
    throw new Error(`request ${seq}: the logged body is not a Messages request (${z.prettifyError(result.error)})`);
  }
  return result.data;
}
