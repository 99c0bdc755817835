import { writeFileSync } from "node:fs";
import { build } from "esbuild";
import { defineConfig } from "tsup";
import { VIEWER_FILE, viewerBuildOptions } from "./src/core/report/viewer-bundle";

// Three entries share chunks, so the CLI, its trial worker threads and a user's package (which imports
// `crashlab/alpha`, served by the package loader from the running copy) run on one copy of the engine.
// After the build, the report page's script is bundled to dist/viewer.js, which the built code reads
// from beside itself (src/core/report/viewer-bundle.ts).
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
  async onSuccess() {
    const result = await build(viewerBuildOptions("src/core/report/client/main.ts"));
    writeFileSync(`dist/${VIEWER_FILE}`, result.outputFiles[0]!.text.trim());
  },
});
