/**
 * Real-time runs hold many sessions in one process (up to 64 at once); virtual-time runs stay at 8. And
 * the local simulator's voice is synthesized once per text (MemoSynthesizer), so a reply heard again
 * costs a copy, not a synthesis on the thread that paces every session's audio.
 */
import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { MAX_REAL_TIME_CONCURRENCY, MAX_VIRTUAL_CONCURRENCY, resolveRun } from "../src/core/run/run";
import { MemoSynthesizer } from "../src/core/speech/memo";
import type { SynthesizedSpeech } from "../src/core/speech/synthesizer";

describe("concurrency ceilings", () => {
  it("takes up to 64 trials at once in real time and 8 with virtual time, saying which is which", () => {
    expect([MAX_VIRTUAL_CONCURRENCY, MAX_REAL_TIME_CONCURRENCY]).toEqual([8, 64]);
    expect(resolveRun(PLAN, { concurrency: 64, real_time: true }).concurrency).toBe(64);
    expect(resolveRun(PLAN, { concurrency: 8 }).concurrency).toBe(8);
    expect(() => resolveRun(PLAN, { concurrency: 9 })).toThrow(
      "concurrency 9 is for real-time runs: with virtual time every trial is CPU work on one thread, so at most 8 run at once — lower --concurrency, or add --real-time (up to 64)",
    );
    expect(() => resolveRun(PLAN, { concurrency: 65, real_time: true })).toThrow("concurrency must be a whole number from 1 to 8 (64 in real time) (got 65)");
  });
});

/** A stand-in engine: counts its calls, answers each text with samples derived from it. */
function countingEngine(fail = new Set<string>()) {
  const calls: string[] = [];
  return {
    calls,
    provider: "test",
    model: "m",
    voice: "v",
    async synthesize(text: string): Promise<SynthesizedSpeech> {
      calls.push(text);
      await new Promise((r) => setTimeout(r, 1));
      if (fail.has(text)) throw new Error(`cannot say ${text}`);
      return { samples: Int16Array.from(text, (c) => c.charCodeAt(0)), sampleRate: 24000, provider: "test", model: "m", voice: "v" };
    },
  };
}

describe("MemoSynthesizer", () => {
  it("synthesizes a text once, even when asked for it by several sessions at once, and hands out copies", async () => {
    const engine = countingEngine();
    const memo = new MemoSynthesizer(engine);
    const [a, b] = await Promise.all([memo.synthesize("One moment."), memo.synthesize("One moment.")]);
    a.samples[0] = 0; // a consumer writing into its samples changes no one else's
    const c = await memo.synthesize("One moment.");
    expect(engine.calls).toEqual(["One moment."]);
    expect(Array.from(b.samples)).toEqual(Array.from("One moment.", (ch) => ch.charCodeAt(0)));
    expect(Array.from(c.samples)).toEqual(Array.from(b.samples));
    expect(memo.stats).toEqual({ hits: 2, misses: 1 });
    expect([memo.provider, memo.model, memo.voice]).toEqual(["test", "m", "v"]);
  });

  it("keeps no failure: the next request tries again", async () => {
    const fail = new Set(["bad"]);
    const engine = countingEngine(fail);
    const memo = new MemoSynthesizer(engine);
    await expect(memo.synthesize("bad")).rejects.toThrow("cannot say bad");
    fail.clear();
    expect((await memo.synthesize("bad")).samples.length).toBe(3);
    expect(engine.calls).toEqual(["bad", "bad"]);
  });

  it("stays within its bound, dropping the least recently used text first", async () => {
    const engine = countingEngine();
    const memo = new MemoSynthesizer(engine, 10); // room for ten samples
    await memo.synthesize("abcd"); // 4
    await memo.synthesize("efgh"); // 8
    await memo.synthesize("abcd"); // a hit: abcd is now the most recent
    await memo.synthesize("ijkl"); // 12 > 10: efgh goes
    await memo.synthesize("abcd");
    await memo.synthesize("efgh");
    expect(engine.calls).toEqual(["abcd", "efgh", "ijkl", "efgh"]);
  });

  it("honours an aborted signal before and after the shared synthesis", async () => {
    const memo = new MemoSynthesizer(countingEngine());
    await expect(memo.synthesize("x", { signal: AbortSignal.abort(new Error("stopped")) })).rejects.toThrow("stopped");
  });
});
