// `ccrepro import`: a recording becomes a scenario file that replays it, with the recording copied beside it.
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { readRecording, RECORDING_FILE, Redactor, scanWrittenFile, writeRecording } from "../../mock-api/recording.ts";
import type { CliContext } from "../context.ts";
import { scenarioFromRecording } from "../scenario-import.ts";
import { readTranscript, scenarioFromTranscript } from "../transcript-import.ts";

// The recording a path names: the file itself, or recording.json inside the folder `ccrepro record --out` wrote.
function recordingFileOf(input: string): string {
  const resolved = path.resolve(input);
  if (!fs.statSync(resolved, { throwIfNoEntry: false })?.isDirectory()) return resolved;
  const inside = path.join(resolved, RECORDING_FILE);
  if (!fs.existsSync(inside)) throw new UserError(`${input} is a folder without ${RECORDING_FILE}: pass the folder ccrepro record --out wrote, or the recording file itself`, "RECORDING_NOT_FOUND");
  return inside;
}

export function registerImportCommand(program: Command, ctx: CliContext): void {
  program
    .command("import")
    .description("write a scenario file that replays a recording (ccrepro record), its check starting as replay fidelity")
    .argument("<recording>", "a recording.json that ccrepro record or ccrepro run --record-api wrote (or the folder record --out wrote), or a transcript <session>.jsonl")
    .requiredOption("--out <file.ts>", "the scenario file to write; the recording is copied beside it as <name>.recording.json")
    .option("--force", "overwrite files that exist")
    .action((input: string, options) => {
      const out = path.resolve(options.out);
      if (!out.endsWith(".ts")) throw new UserError(`--out ${options.out}: a scenario file ends in .ts (e.g. --out my-bug.ts)`, "BAD_ARGUMENT");
      const name = path.basename(out, ".ts");
      const copy = path.join(path.dirname(out), `${name}.recording.json`);
      for (const file of [out, copy]) {
        if (fs.existsSync(file) && !options.force) throw new UserError(`${file} exists: pick another --out, or pass --force to overwrite it`, "FILE_EXISTS");
      }
      const redactor = new Redactor(process.env);
      if (input.endsWith(".jsonl")) {
        let text: string;
        try {
          text = fs.readFileSync(path.resolve(input), "utf8");
        } catch (error) {
          throw new UserError(`${input}: cannot read the transcript (${(error as NodeJS.ErrnoException).code}): check the path`, "TRANSCRIPT_UNREADABLE");
        }
        fs.mkdirSync(path.dirname(out), { recursive: true });
        if (fs.existsSync(out) && !options.force) throw new UserError(`${out} exists: pick another --out, or pass --force to overwrite it`, "FILE_EXISTS");
        const turns = readTranscript(input, text);
        fs.writeFileSync(out, redactor.text(scenarioFromTranscript(turns, { name, from: path.basename(input) })));
        scanWrittenFile(out, redactor.values());
        ctx.print(`read a transcript written by ${turns.era}`);
        ctx.print(`wrote ${out}`);
        ctx.print(`replay it: ccrepro run ${path.relative(process.cwd(), out) || out} --claude <version>`);
        return;
      }
      const file = recordingFileOf(input);
      const recording = readRecording(file);
      const { text, warnings } = scenarioFromRecording(recording, { name, recordingFile: path.basename(copy), from: path.basename(file) });
      fs.mkdirSync(path.dirname(out), { recursive: true });
      // Redacted and scanned again as written: an edited recording is held to the same rule.
      writeRecording(copy, recording, redactor);
      fs.writeFileSync(out, text);
      scanWrittenFile(out, redactor.values());
      for (const warning of warnings) ctx.note(`ccrepro import: ${warning}`);
      ctx.print(`wrote ${out} and ${copy}`);
      ctx.print(`replay it: ccrepro run ${path.relative(process.cwd(), out) || out} --claude <version>`);
    });
}
