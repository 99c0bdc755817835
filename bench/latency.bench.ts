/**
 * `pnpm bench latency [cases]`: does a recorded latency depend on how many trials share the process? The
 * first `cases` bundled CRAWL cases (default 8) run in real time at concurrency 1, then all at once; each
 * case's recorded response latency is printed for both, with the difference and each run's worst pacing lag.
 * The caller speech and the simulator's voice are made first (virtual time), as a repeated run has them.
 */
import { mkdtempSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { PLAN } from "../crashlab/evaluations";
import type { TrialRecord } from "../src/core/record/trial-record";
import { run } from "../src/core/run/run";
import { CachedSynthesizer, EspeakSynthesizer } from "../src/core/speech/index";

export interface LatencyRow {
  case_id: string;
  alone_ms: number | null;
  together_ms: number | null;
}

export interface LatencyResult {
  rows: LatencyRow[];
  concurrency: number;
  max_lag_alone_ms: number;
  max_lag_together_ms: number;
  load: number[];
}

const latency = (r: TrialRecord) => (r.metrics.audio?.response_latency_ms as number | null | undefined) ?? null;
const maxLag = (records: TrialRecord[]) =>
  Math.max(0, ...records.flatMap((r) => r.events.filter((e) => e.type === "audio.pacing").map((e) => (e.data as { max_lag_ms: number }).max_lag_ms)));

export async function benchLatency(cases = 8): Promise<LatencyResult> {
  const ids = PLAN.cases.filter((c) => c.kind === "crawl").slice(0, cases).map((c) => c.id);
  const speech = new CachedSynthesizer(new EspeakSynthesizer(), { root: mkdtempSync(join(tmpdir(), "crashlab-bench-latency-")) });
  const base = { target: "restaurant", speech, selection: { ids } } as const;
  await run(PLAN, base);
  const load = loadavg().map((l) => Math.round(l * 100) / 100);
  const alone = await run(PLAN, { ...base, real_time: true, concurrency: 1 });
  const together = await run(PLAN, { ...base, real_time: true, concurrency: ids.length });
  const byCase = (records: TrialRecord[]) => new Map(records.map((r) => [r.case_id, latency(r)]));
  const a = byCase(alone.records);
  const t = byCase(together.records);
  return {
    rows: ids.map((id) => ({ case_id: id, alone_ms: a.get(id) ?? null, together_ms: t.get(id) ?? null })),
    concurrency: ids.length,
    max_lag_alone_ms: maxLag(alone.records),
    max_lag_together_ms: maxLag(together.records),
    load,
  };
}

export function printLatency(r: LatencyResult): void {
  console.log(`\nresponse latency alone and ${r.concurrency} at once (real time, bundled CRAWL cases; load average ${r.load.join(" / ")} on ${availableParallelism()} cores)`);
  const w = Math.max(...r.rows.map((x) => x.case_id.length));
  console.log(`  ${"case".padEnd(w)}  ${"alone".padStart(8)}  ${"together".padStart(8)}  ${"Δ".padStart(6)}`);
  const ms = (x: number | null) => (x === null ? "—" : `${Math.round(x)}`);
  let worst = 0;
  for (const x of r.rows) {
    const d = x.alone_ms !== null && x.together_ms !== null ? x.together_ms - x.alone_ms : null;
    if (d !== null) worst = Math.max(worst, Math.abs(d));
    console.log(`  ${x.case_id.padEnd(w)}  ${ms(x.alone_ms).padStart(8)}  ${ms(x.together_ms).padStart(8)}  ${(d === null ? "—" : `${d > 0 ? "+" : ""}${Math.round(d)}`).padStart(6)}`);
  }
  console.log(`  largest difference ${Math.round(worst)} ms (target ≤ 20); max pacing lag alone ${r.max_lag_alone_ms} ms, together ${r.max_lag_together_ms} ms (target ≤ 20)`);
}
