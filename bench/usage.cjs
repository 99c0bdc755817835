// Preloaded into a `crashlab` child by bench/whole-run.bench.ts: writes the process's resource usage (CPU of
// every thread, peak RSS) as JSON on exit.
process.on("exit", () => require("node:fs").writeFileSync(process.env.CRASHLAB_BENCH_USAGE_FILE, JSON.stringify(process.resourceUsage())));
