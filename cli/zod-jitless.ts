// A ccrepro process parses each of its schemas a handful of times (a run.json, a scenario definition, a few dozen
// requests), and zod's JIT compiles a parser for every object schema with `new Function` on its first parse: more
// CPU than it saves here (25–45 ms of zod on the main thread in a run, docs/startup.md). Imported before any command,
// so no schema has been parsed yet; the setting is zod's global one, shared with the scenario files the run loads.
import { z } from "zod";

z.config({ jitless: true });
