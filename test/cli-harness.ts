/** The CLI in this process, as the bin runs it from the repository root, with its output captured. */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";

const repo = resolve(import.meta.dirname, "..");

export async function cli(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env });
  return { code, stdout, stderr };
}

/** The one run folder a run wrote under `out` (its --results-dir). */
export function runFolder(out: string): string {
  return join(out, readdirSync(out)[0]!);
}
