#!/usr/bin/env node
import * as alpha from "./alpha/index";
import { main } from "./core/cli/main";

// The bin stays thin: all behaviour lives in main(), which the tests drive directly.
const controller = new AbortController();
process.once("SIGINT", () => {
  process.stderr.write("\ncrashlab: interrupt received; finishing trials in progress (Ctrl-C again to quit now)\n");
  controller.abort();
  process.once("SIGINT", () => process.exit(130));
});
main(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
  alpha: alpha as Record<string, unknown>,
  signal: controller.signal,
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`crashlab: internal error: ${(error as Error)?.stack ?? String(error)}\nPlease report this with the command you ran.\n`);
    process.exitCode = 3;
  },
);
