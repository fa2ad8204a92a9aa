// An image the API refused (400 "Could not process image") must not be sent again with every later turn.
import { bash, choice, conversation, defineScenario, httpError, resultPrinted, send, session, start, stop, text, toolCall, wait, z } from "../kit/index.ts";
import { blocksOf, finding, notReached, reached, requestsOf, resultsOf } from "../kit/checkers.ts";

const MARKER = "CCREPRO_IMAGE400_7Q";
// A valid 1×1 PNG: the API's refusal, not the file, is the fault.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const WRITE_PNG = `node -e "const f=require('fs'),p=require('path');f.writeFileSync('pic.png',Buffer.from('${PNG}','base64'));console.log(p.resolve('pic.png'))"`;
const s1 = session("s1");
// A stream-json user line whose message carries the image beside the prompt.
const pasted = {
  type: "user",
  message: { role: "user", content: [{ type: "text", text: `${MARKER} look at the picture` }, { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }] },
};

export default defineScenario({
  name: "rejected-image-resent",
  summary: "After the API answers 400 to a request carrying an image, the next turn's request no longer carries that image.",
  source:
    "anthropics/claude-code#1747, #25592, #47391: once an image (pasted, or read with the Read tool) got 400 \"Could not process image\", " +
    "every later message of the session fails with the same 400, because the image stays in the history claude sends.",
  link: "https://github.com/anthropics/claude-code/issues/25592",
  params: z.strictObject({
    // read: claude writes a PNG and reads it with the Read tool (the image is in a tool result). prompt: the user's
    // first message carries the image itself, as a pasted screenshot does.
    via: choice(["read", "prompt"], { default: "read" }),
  }),
  findings: ["rejected-block-resent"],
  sessions: [s1],
  // Turn 1: write a PNG, Read it (its tool result carries an image block). Every request carrying an image gets the
  // API's 400, every other one an answer.
  mockScript: (p) =>
    conversation({
      main: {
        marker: MARKER,
        replies: p.via === "read" ? [bash(WRITE_PNG, "write a png"), toolCall("Read", { file_path: "{{toolResult:(/\\S*pic\\.png)}}" })] : [],
        then: httpError(400, { carrying: "image", message: "Could not process image", then: text("ok") }),
      },
    }),
  steps: (p) => [
    p.via === "read" ? start(s1, { prompt: `${MARKER} look at the picture` }) : [start(s1), send(s1, { json: pasted })],
    wait("the first turn's result", resultPrinted(s1), { timeout: 90_000 }),
    send(s1, "forget the picture, just say ok"),
    wait("the second turn's result", resultPrinted(s1, { count: 2 }), { timeout: 90_000 }),
    stop(s1),
  ],
  check(rec) {
    const main = requestsOf(rec, { stream: "main" });
    const refused = main.find((r) => r.reply.status === 400 && r.reply.fault !== null && blocksOf(r, "image").length > 0);
    if (!refused) return { reached: notReached("no request carrying an image was answered 400 (did the Read tool return an image?)"), findings: [] };
    if (resultsOf(rec, s1).length < 2) return { reached: notReached("the session did not print the second turn's result"), findings: [] };
    // The second turn's requests: every main request after the refusal that carries the second prompt.
    const secondTurn = main.filter((r) => r.seq > refused.seq && JSON.stringify(r.messages).includes("forget the picture"));
    if (secondTurn.length === 0) return { reached: notReached("no request of the second turn was made"), findings: [] };
    const resent = secondTurn.filter((r) => blocksOf(r, "image").length > 0);
    const findings = resent.length
      ? [
          finding({
            id: "rejected-block-resent",
            title: `the image the API refused is sent again with the next turn, and refused again (${resent.length} request(s))`,
            where: `request #${resent[0]!.seq} ${blocksOf(resent[0]!, "image")[0]!.path}`,
            detail: resent.map((r) => `#${r.seq}: ${blocksOf(r, "image").length} image block(s), answered ${r.reply.status}`),
          }),
        ]
      : [];
    const line = (r: (typeof main)[number]) => `#${r.seq} step ${r.entry.step} images ${blocksOf(r, "image").length} → ${r.reply.status}`;
    return { reached: reached(), findings, notes: [`refused: #${refused.seq} at ${blocksOf(refused, "image")[0]!.path}`, `main: ${main.map(line).join(", ")}`] };
  },
  needs: ["stream-json-output"],
  // Measured 2026-12-02 and 2026-12-06: node bin/ccrepro.mjs bisect rejected-image-resent [--param via=prompt] --old A --new B,
  // then run … --claude V --repeat 3|5 on each side of each boundary (docs/scenarios/rejected-image-resent.md).
  known: [
    { versions: "1.0.21 - 1.0.64", verdict: "INCONCLUSIVE", note: "the scripted Read is never called: these releases keep the Bash call twice in the history (the same tool_use id, as mid-stream-error-partial finds), so the main stream's next reply is the final text and no image is refused (the atlas, 2026-12-07; 1.0.64 3 of 3)" },
    { versions: ">=1.0.65 <=2.1.141", verdict: "RED", finding: "rejected-block-resent", note: "the refused image stays in the history: the next turn's request carries it and is refused again (1.0.65 3/3, 1.0.128, 2.0.72, 2.1.58, 2.1.112, 2.1.113, 2.1.141 5/5; the atlas on every release between)" },
    { versions: ">=2.1.142", verdict: "GREEN", note: "after the 400 claude asks again at once with the image replaced by \"[Image removed: the API could not process this image …]\", and the next turn carries none (2.1.142 5/5, 2.1.144, 2.1.147, 2.1.154, 2.1.168, 2.1.223, 2.1.332)" },
    { versions: "1.0.64 - 2.1.37", params: { via: "prompt" }, verdict: "RED", finding: "rejected-block-resent", note: "every request of every turn carries the image and is refused (the atlas, 2026-12-07, from 1.0.64: 1.0.21 - 1.0.62 exit 1 on a prompt of two content blocks; 1.0.128, 2.0.72, 2.0.76, 2.1.27, 2.1.33, 2.1.37 3/3 +1)" },
    { versions: "2.1.64", params: { via: "prompt" }, verdict: "RED", finding: "rejected-block-resent", note: "one release back: the refused request is asked again with the image in the same turn, refused again (the atlas, 2026-12-07; 3 of 3, and 2.1.63 and 2.1.67 GREEN 3 of 3)" },
    { versions: ">=2.1.38 <=2.1.63 || 2.1.67 - 2.1.68", params: { via: "prompt" }, verdict: "GREEN", note: "the next turn's request carries the text \"[image]\" where the refused image was (2.1.38 3/3 +1, 2.1.39, 2.1.41, 2.1.58 3/3 +1, 2.1.68 3/3 +1)" },
    { versions: "2.1.69", params: { via: "prompt" }, verdict: "INCONCLUSIVE", note: "the mock classifies no request as the main stream (the first user message is the deferred-tools list, not the prompt), so no image is refused (3/3)" },
    { versions: ">=2.1.70 <=2.1.141", params: { via: "prompt" }, verdict: "RED", finding: "rejected-block-resent", note: "the image is sent again with the next turn and refused again (2.1.70 3/3 +1, 2.1.71, 2.1.75, 2.1.90, 2.1.112)" },
    { versions: ">=2.1.142 <=2.1.165", params: { via: "prompt" }, verdict: "RED", finding: "rejected-block-resent", note: "the refused request is asked again without the image, but the next turn's first request carries it again and is refused again (2.1.142, 2.1.165 5/5)" },
    { versions: ">=2.1.166", params: { via: "prompt" }, verdict: "GREEN", note: "the image is gone from the next turn too (2.1.166 5/5 +1, 2.1.167, 2.1.170, 2.1.176, 2.1.191, 2.1.236, 2.1.332)" },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [
      { version: "2.0.72", says: "reported", source: "#22351" },
      { version: "2.0.76", says: "reported", source: "#15478 (an attached image)", params: { via: "prompt" } },
      { version: "2.1.58", says: "reported", source: "#43016" },
      { version: "2.1.166", says: "fixed", source: "CHANGELOG 2.1.166", params: { via: "prompt" } },
    ],
  },
});
