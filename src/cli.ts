#!/usr/bin/env node
import * as alpha from "./alpha/index";
import { main } from "./core/cli/main";

// The bin stays thin: all behaviour lives in main(), which the tests drive directly. Only `run` has
// partial work worth keeping, and only `view --review` and `serve-assistant` serve until stopped, so only they handle signals;
// other commands keep the default behaviour.
const argv = process.argv.slice(2);
const interrupt = new AbortController();
const abandon = new AbortController();
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
let received: string | null = null;
if (argv[0] === "run") {
  for (const name of SIGNALS)
    process.on(name, () => {
      if (!received) {
        received = name;
        process.stderr.write(`\ncrashlab: ${name} received; no new trial starts, trials in progress finish, then the results are written (send it again to stop now)\n`);
        interrupt.abort(name);
      } else if (!abandon.signal.aborted) {
        process.stderr.write(`\ncrashlab: ${name} received again; writing the results of the finished trials and stopping now\n`);
        abandon.abort(name);
      } else {
        // A third signal: leave at once. Every output is written atomically, so nothing is half-written.
        process.exit(128 + (name === "SIGHUP" ? 1 : name === "SIGINT" ? 2 : 15));
      }
    });
}
// `view --review` serves until a signal: the first ends it cleanly.
if ((argv[0] === "view" && argv.includes("--review")) || argv[0] === "serve-assistant") for (const name of SIGNALS) process.once(name, () => interrupt.abort(name));
main(argv, {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
  alpha: alpha as Record<string, unknown>,
  signal: interrupt.signal,
  abandon: abandon.signal,
  env: process.env,
  // The trial worker entry sits beside the bin (dist/worker.js; src/worker.ts when run from the sources).
  workers: new URL(import.meta.url.endsWith(".ts") ? "./worker.ts" : "./worker.js", import.meta.url),
}).then(
  (code) => {
    // After an interruption, trials abandoned at the second signal may still hold sockets open: leave now.
    if (received) process.exit(code);
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`crashlab: internal error: ${(error as Error)?.stack ?? String(error)}\nPlease report this with the command you ran.\n`);
    process.exitCode = 3;
  },
);
