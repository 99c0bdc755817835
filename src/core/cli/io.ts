/** What the CLI is given instead of reaching for the process: its output channels, folder, environment and signals. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** The public API module (`crashlab/alpha`) of this very copy of crashlab, served to the package. */
  alpha: Record<string, unknown>;
  /**
   * Interrupts a run in progress (the first SIGINT, SIGTERM or SIGHUP; the abort reason names the signal):
   * no new trial starts, trials in progress finish, outputs are written.
   */
  signal?: AbortSignal;
  /** A second signal: stop waiting for trials in progress, write the outputs of the finished ones, return. */
  abandon?: AbortSignal;
  /** The environment (only OPENAI_API_KEY is read). */
  env?: Record<string, string | undefined>;
  /**
   * The trial worker's entry module (the bin's sibling, dist/worker.js). With it, an offline run above
   * --concurrency 1 runs its trials in worker threads, one per core; without it (library callers, most
   * tests) every trial runs in this thread. Records and artifacts are the same either way.
   */
  workers?: URL;
}
