// Preloaded into a `crashlab` child by bench/scale.bench.ts: writes the process's peak RSS (KiB) on exit.
process.on("exit", () => require("node:fs").writeFileSync(process.env.CRASHLAB_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));
