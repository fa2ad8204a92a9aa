// The one way a value from outside (a recording, a transcript, a path) enters generated TypeScript: as a JSON literal
// in which nothing can end the literal or the line it stands on. JSON.stringify leaves U+2028 and U+2029 raw, and
// JavaScript and TypeScript read both as line ends, which would end a `//` comment; `<`, `>` and `` ` `` are escaped
// too, so the literal is inert in any context it is pasted into. Comments carry input only through this as well
// (issue 41): generated code holds exactly the statements its generator wrote, whatever the input said.
export function codeLiteral(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError(`codeLiteral: ${String(value)} has no JSON form`);
  return json.replace(/[\u2028\u2029<>`]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
