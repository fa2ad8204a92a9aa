// A request body read as the API reads it: JSON, with no unpaired surrogate escape, else the API's own 400 text,
// "The request body is not valid JSON: <what>: line L column C (char P)" (anthropics/claude-code#77330: "unexpected
// character: line 1 column 1 (char 0)"; #8514, #6376, #3318: "no low surrogate in string: line 1 column 175409 (char
// 175408)"). JavaScript's JSON.parse takes an unpaired `\ud83d` that the API refuses, so that is checked first.

export type JsonBody = { ok: true; value: unknown } | { ok: false; message: string };

const at = (text: string, index: number) => {
  const before = text.slice(0, index);
  const line = before.split("\n").length;
  const column = index - (before.lastIndexOf("\n") + 1) + 1;
  return `line ${line} column ${column} (char ${index})`;
};

// `\uXXXX` escapes with an odd run of backslashes before the `u` (an even run is an escaped backslash and a letter u).
const ESCAPE = /(\\+)u([0-9a-fA-F]{4})/g;

function unpairedSurrogate(text: string): { index: number; what: string } | null {
  let expectLowAt = -1;
  for (const match of text.matchAll(ESCAPE)) {
    if (match[1]!.length % 2 === 0) continue;
    const index = match.index! + match[1]!.length - 1;
    const code = parseInt(match[2]!, 16);
    const isHigh = code >= 0xd800 && code <= 0xdbff;
    const isLow = code >= 0xdc00 && code <= 0xdfff;
    if (expectLowAt !== -1 && index !== expectLowAt) return { index: expectLowAt, what: "no low surrogate in string" };
    if (expectLowAt !== -1) {
      if (!isLow) return { index, what: "no low surrogate in string" };
      expectLowAt = -1;
      continue;
    }
    if (isLow) return { index, what: "unexpected end of hex escape" };
    if (isHigh) expectLowAt = index + 6;
  }
  return expectLowAt === -1 ? null : { index: expectLowAt, what: "no low surrogate in string" };
}

/** The body's JSON, or the API's message for a body it cannot parse. */
export function readJsonBody(text: string): JsonBody {
  const surrogate = unpairedSurrogate(text);
  if (surrogate) return { ok: false, message: `The request body is not valid JSON: ${surrogate.what}: ${at(text, surrogate.index)}` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    // Node names the offending position in most messages; the API's wording for the reason varies, this is its commonest.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    return { ok: false, message: `The request body is not valid JSON: unexpected character: ${at(text, position === undefined ? 0 : Number(position))}` };
  }
}
