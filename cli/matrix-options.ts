// The nightly matrix as command-line words (`--scenarios`, `--claude`, `--driver`, `--sdk`), shared by `nightly` and
// `ci plan` so the plan the action caches releases by is the matrix it then runs.
import { Option, type Command } from "commander";
import { UserError } from "../core/errors.ts";
import { loadNightlyConfig, type NightlyConfig } from "../nightly/config.ts";
import { defaultNightlyConfig } from "../nightly/default-config.ts";
import { configFromWords, MATRIX_DRIVERS, type MatrixDriver } from "../nightly/matrix-words.ts";

export interface MatrixOptions {
  config?: string;
  scenarios?: string;
  claude?: string;
  driver?: MatrixDriver;
  sdk?: string;
}

export function withMatrixOptions(command: Command): Command {
  return command
    .option("--scenarios <list>", "the matrix's scenarios, built-in names or scenario files, separated by commas (instead of --config)")
    .option("--claude <words>", 'with --scenarios: claude releases, separated by commas: latest, latest-N, 2.1.280, a semver range, since:DATE, since:previous (default "latest")')
    .addOption(new Option("--driver <driver>", "with --scenarios: each scenario's own driver, or every cell through the Agent SDK").choices(MATRIX_DRIVERS))
    .option("--sdk <version>", "with --driver sdk: the Agent SDK release (an exact version; default ccrepro's)");
}

// The config file, the words, or the built-in default; never two of them.
export async function matrixConfig(options: MatrixOptions): Promise<NightlyConfig> {
  const words = options.scenarios !== undefined;
  if (options.config && words) throw new UserError("give either --config or --scenarios, not both: the matrix comes from one of them", "CONFLICTING_OPTIONS");
  if (!words && (options.claude !== undefined || options.driver !== undefined || options.sdk !== undefined)) {
    throw new UserError("--claude, --driver and --sdk describe the matrix of --scenarios; add --scenarios, or put them in the --config file", "CONFLICTING_OPTIONS");
  }
  if (words) {
    return configFromWords({ scenarios: options.scenarios!, claude: options.claude ?? "latest", ...(options.driver ? { driver: options.driver } : {}), ...(options.sdk ? { sdk: options.sdk } : {}) }, process.cwd());
  }
  return options.config ? loadNightlyConfig(options.config) : defaultNightlyConfig();
}
