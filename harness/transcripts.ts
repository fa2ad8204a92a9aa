// The transcripts claude writes under a config dir's `projects/<cwd as a dashed path>/<session id>.jsonl`: found in
// the live config dir (steps), and in the run directory's `transcripts/` copy (what the checker reads).
import fs from "node:fs";
import path from "node:path";

// One transcript file: its path (absolute), its project folder's name, the session id it is named by, and its text.
export interface TranscriptFile {
  path: string;
  project: string;
  sessionId: string;
  text: string;
}

// Every `<project>/<id>.jsonl` directly under `projectsDir` (subagent transcripts in deeper folders are left out).
function filesUnder(projectsDir: string): TranscriptFile[] {
  if (!fs.existsSync(projectsDir)) return [];
  return fs.readdirSync(projectsDir, { withFileTypes: true }).flatMap((project) => {
    if (!project.isDirectory()) return [];
    const dir = path.join(projectsDir, project.name);
    return fs
      .readdirSync(dir)
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => ({ path: path.join(dir, name), project: project.name, sessionId: name.slice(0, -".jsonl".length), text: fs.readFileSync(path.join(dir, name), "utf8") }));
  });
}

// The transcripts of a live config dir (CLAUDE_CONFIG_DIR).
export const transcriptFiles = (configDir: string): TranscriptFile[] => filesUnder(path.join(configDir, "projects"));

// The transcripts a finished run copied out of its config dir (run layout `transcripts`).
export const copiedTranscripts = (transcriptsDir: string): TranscriptFile[] => filesUnder(transcriptsDir);
