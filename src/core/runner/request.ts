/**
 * A run request: everything about a run that is decided before its first trial, as plain data. The front
 * end (src/core/runner/front.ts, for the CLI and the library alike) builds it once; a trial worker thread
 * is handed it with trial ids, turns its settings into the engine's options by the same function the main
 * thread used, and never sees a command line or resolves a setting again.
 */
import type { ResolvedRunData } from "../run/run";
import type { PackageIdentity } from "../provenance/package-files";
import type { RunSettings } from "../settings/schema";

export interface RunRequest {
  /** The evaluation package: a worker thread loads the PLAN again from `file` (a PLAN holds closures). */
  package: { file: string; dir: string; digest: string; identity?: PackageIdentity; cache_dir?: string };
  /** The folder relative paths of the settings mean something in. */
  cwd: string;
  /** The run's settings, resolved once in the main thread. */
  settings: RunSettings;
  /** The credentials the settings call for, by variable (in memory only: never written, never in a digest). */
  credentials: Record<string, string>;
  /** The run as resolved: trials with their seeds, target name, limits, gates. */
  run: ResolvedRunData;
  /** Whether the run holds RUN conversations (their settings are built only then). */
  conversations: boolean;
  /** Secrets to redact, in the layers the main thread applies them. */
  secrets: string[][];
}
