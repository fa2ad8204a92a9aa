// Reading a JSON file a user pointed at, with the two ways it fails told apart: unreadable, or not JSON.
import fs from "node:fs";

export type JsonFileFailure = "unreadable" | "not-json";

// `what` names the file's role ("nightly config"); `fail` turns each failure into the caller's own error, so it
// can add what to do and its own error code.
export function readJsonFile(file: string, what: string, fail: (kind: JsonFileFailure, message: string, cause: unknown) => Error): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : (error as Error).message;
    throw fail("unreadable", `cannot read ${what} ${file}: ${reason}`, error);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw fail("not-json", `${what} ${file} is not valid JSON: ${(error as Error).message}; fix the JSON and run again`, error);
  }
}
