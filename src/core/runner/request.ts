/**
 * A run request: everything about a run that is decided before its first trial, as plain data. The front
 * end (the CLI, or a library caller) builds it once; the run session keeps it; a trial worker thread is
 * handed it with trial ids and never sees a command line or resolves the run again.
 */
import type { ArtifactPolicy } from "../report/artifacts";
import type { ConversationLine } from "../trial/context";
import type { ResolvedRunData, RunOptions } from "../run/run";
import type { PackageIdentity } from "../provenance/package-files";

export interface RunRequest {
  /** The evaluation package: a worker thread loads the PLAN again from `file` (a PLAN holds closures). */
  package: { file: string; dir: string; digest: string; identity?: PackageIdentity; cache_dir?: string };
  /** The folder relative paths of the request mean something in. */
  cwd: string;
  /** Datasets run with the package's world (`--data`), as given. */
  data: string[];
  /**
   * The front end's resolved settings, plain data. The front end's `EngineSetup` turns them into the
   * engine's options (caller speech, conversations) in whatever thread runs trials.
   */
  settings: unknown;
  /** The run as resolved: trials with their seeds, target name, limits, gates. */
  run: ResolvedRunData;
  /** Whether the run holds RUN conversations (their settings are built only then). */
  conversations: boolean;
  artifacts: ArtifactPolicy;
  verbose: boolean;
  /** Secrets to redact, in the layers the main thread applies them. */
  secrets: string[][];
}

/** Turns a request's settings into the engine's options, where the package is loaded. */
export type EngineSetup = (settings: unknown, where: { package_dir: string; package_digest: string; package_identity?: PackageIdentity; cwd: string; conversations: boolean }, onLine?: (line: ConversationLine) => void) => RunOptions;
