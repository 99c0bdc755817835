import { defineConfig } from "tsup";

// Three entries share chunks, so the CLI, its trial worker threads and a user's package (which imports
// `crashlab/alpha`, served by the package loader from the running copy) run on one copy of the engine.
export default defineConfig({
  entry: { alpha: "src/alpha/index.ts", cli: "src/cli.ts", worker: "src/worker.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  dts: { entry: { alpha: "src/alpha/index.ts" } },
  splitting: true,
  sourcemap: true,
  clean: true,
  shims: false,
});
