import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Four tiers, each a vitest project (`pnpm test:<tier>`; `pnpm test` runs all four):
 * - run: files that run whole trials (`run(plan, …)`, `runTrial`) or the CLI's `main` with `run`, in process
 *   or as a child process; and the module tests too slow for the unit tier (SLOW).
 * - browser: report.html in chromium (test/browser.ts says which chromium).
 * - pack: the tarball built, installed with npm into an empty folder, and used as a new user would.
 * - unit: every other file, well under a minute together. A new test file lands here; one that runs trials
 *   belongs in TRIALS, one that costs seconds of CPU in SLOW.
 * Projects extend this file (the alias, the timeouts); no `include` here, since a project's list would be
 * added to it rather than replace it.
 *
 * `pnpm test:unit` adds `--no-isolate`: the unit files then share one module registry instead of importing
 * the sources afresh per file, which cut the tier's CPU from 77 s to 19 s here. They use no mocks and pass
 * in shuffled order that way. `pnpm test` (what CI runs) keeps each file isolated, and so does `pnpm mutate`:
 * Stryker activates some mutants as their module loads.
 */
const tier = (names: string[]) => names.map((n) => `test/${n}.test.ts`);

const TRIALS = tier([
  "airline-package",
  "artifacts-policy",
  "audio-frames",
  "azure",
  "bad-folders",
  "bad-input",
  "cli",
  "cli-view",
  "compare",
  "crawl-audio",
  "data-flag",
  "determinism",
  "disclosure-run",
  "duration-limit",
  "endpoints",
  "faults",
  "golden-records",
  "grounding-run",
  "init",
  "input-trust",
  "journal",
  "judge-run",
  "live-caller",
  "live-target",
  "portable-results",
  "provenance",
  "protection",
  "protection-live",
  "realtime-concurrency",
  "remote-assistant-faults",
  "remote-assistant-run",
  "remote-assistant-conformance",
  "report-data",
  "responsiveness-run",
  "restaurant-run",
  "review-run",
  "resume",
  "run-conversations",
  "run-edges",
  "run-interrupt",
  "runner",
  "secrets",
  "settings-run",
  "shards",
  "signals",
  "target-failures",
  "transcript-wording",
  "trial-stages",
  "variation",
  "vary-packages",
  "vary-run",
  "walk-run",
  "warnings",
  "workers",
]);
/**
 * Files that would be unit tests but each cost 4–15 s of CPU beyond vitest's own start (measured one at a time
 * on this 2-core machine): WALK condition audio rendered, the dataset fuzzer's many loads, espeak-ng speech
 * synthesized, whole conversations at the policy level, the GPT-Live simulator's sessions, the API report (the
 * TypeScript compiler over the public API). Together they were
 * over 40% of the unit tier's CPU. The tests `pnpm mutate` runs against the grading core stay in unit even
 * where they cost as much (world-engine, grounding, judge-verdicts).
 */
const SLOW = tier([
  "api-report",
  "dataset-fuzz",
  "live-simulator",
  "restaurant-conversation",
  "speech-espeak",
  "walk-conditions",
  "walk-fixtures",
  "walk-generate",
]);
const RUN = [...TRIALS, ...SLOW];
const BROWSER = tier(["report-browser", "review-browser"]);
const PACK = tier(["pack-install"]);

export default defineConfig({
  resolve: {
    alias: { "crashlab/alpha": fileURLToPath(new URL("./src/alpha/index.ts", import.meta.url)) },
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [...configDefaults.exclude, ...RUN, ...BROWSER, ...PACK] } },
      { extends: true, test: { name: "run", include: RUN } },
      { extends: true, test: { name: "browser", include: BROWSER } },
      { extends: true, test: { name: "pack", include: PACK } },
    ],
  },
});
