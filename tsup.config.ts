import { defineConfig } from "tsup";

// Two entries share chunks, so the CLI and a user's package (which imports `crashlab/alpha`,
// aliased by the package loader to dist/alpha.js) run on one copy of the engine.
export default defineConfig({
  entry: { alpha: "src/alpha/index.ts", cli: "src/cli.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  dts: { entry: { alpha: "src/alpha/index.ts" } },
  splitting: true,
  sourcemap: true,
  clean: true,
  shims: false,
});
