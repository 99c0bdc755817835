/**
 * Real-time runs hold many sessions in one process (up to 64 at once); virtual-time runs stay at 8. And
 * the local simulator's voice is synthesized once per text (MemoSynthesizer), so a reply heard again
 * costs a copy, not a synthesis on the thread that paces every session's audio.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { writeTrialArtifacts, writeTrialArtifactsPaced } from "../src/core/report/artifacts";
import { prefetchCallerSpeech } from "../src/core/run/prefetch";
import { MAX_REAL_TIME_CONCURRENCY, MAX_VIRTUAL_CONCURRENCY, resolveRun, run } from "../src/core/run/run";
import { CachedSynthesizer } from "../src/core/speech/cache";
import { EspeakSynthesizer } from "../src/core/speech/espeak";
import { memoizedEspeak, MemoSynthesizer } from "../src/core/speech/memo";
import type { SynthesizedSpeech } from "../src/core/speech/synthesizer";
import type { TrialMedia } from "../src/core/trial/context";

describe("concurrency ceilings", () => {
  it("takes up to 64 trials at once in real time and 8 with virtual time, saying which is which", () => {
    expect([MAX_VIRTUAL_CONCURRENCY, MAX_REAL_TIME_CONCURRENCY]).toEqual([8, 64]);
    expect(resolveRun(PLAN, { concurrency: 64, real_time: true }).concurrency).toBe(64);
    expect(resolveRun(PLAN, { concurrency: 8 }).concurrency).toBe(8);
    expect(() => resolveRun(PLAN, { concurrency: 9 })).toThrow(
      "concurrency 9 is for real-time runs: with virtual time every trial is CPU work (one core at most), so at most 8 run at once — lower --concurrency, or add --real-time (up to 64)",
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

describe("real time keeps work off the pacing thread", () => {
  it("synthesizes every CRAWL caller line before the first trial starts, once per distinct text, and nothing for WALK or RUN", async () => {
    const engine = countingEngine();
    const cached = new CachedSynthesizer({ ...engine, instructions: undefined, service: undefined }, { root: mkdtempSync(join(tmpdir(), "prefetch-")) });
    const crawl = PLAN.cases.filter((c) => c.kind === "crawl").slice(0, 3).map((c) => c.id);
    const others = [PLAN.cases.find((c) => c.kind === "walk")!.id, PLAN.cases.find((c) => c.kind === "run")!.id];
    const { trials } = resolveRun(PLAN, { selection: { ids: [...crawl, ...others] }, repetitions: 2 });
    expect(await prefetchCallerSpeech(trials, cached)).toBe(3);
    const texts = PLAN.cases.filter((c) => crawl.includes(c.id)).map((c) => c.scenario.input.text);
    expect([...engine.calls].sort()).toEqual([...texts].sort());
    // Without a cache nothing is asked: the trial would only synthesize it again.
    const bare = countingEngine();
    expect(await prefetchCallerSpeech(trials, bare)).toBe(0);
    expect(bare.calls).toEqual([]);
  });

  it("a real-time run has its caller lines ready before any trial starts", async () => {
    const order: string[] = [];
    const espeak = new EspeakSynthesizer({ voice: "coral" });
    const speech = new CachedSynthesizer(
      { provider: espeak.provider, model: espeak.model, voice: espeak.voice, synthesize: (text: string) => (order.push(`synthesize ${text.slice(0, 12)}`), espeak.synthesize(text)) },
      { root: mkdtempSync(join(tmpdir(), "prefetch-run-")) },
    );
    const ids = PLAN.cases.filter((c) => c.kind === "crawl").slice(0, 2).map((c) => c.id);
    const result = await run(PLAN, { selection: { ids }, concurrency: 2, real_time: true, speech, onTrialStart: (spec) => void order.push(`start ${spec.trial_id}`) });
    expect(result.records.map((r) => r.status)).toEqual(["passed", "passed"]);
    expect(order.slice(0, 2).every((o) => o.startsWith("synthesize "))).toBe(true);
    expect(order.slice(2).every((o) => o.startsWith("start "))).toBe(true);
  }, 60_000);

  it("writes a trial's files a piece at a time byte for byte as in one piece, pausing between the pieces", async () => {
    const media: TrialMedia[] = [];
    const id = PLAN.cases.find((c) => c.kind === "crawl")!.id;
    const result = await run(PLAN, { selection: { ids: [id] }, speech: new CachedSynthesizer(new EspeakSynthesizer(), { root: mkdtempSync(join(tmpdir(), "paced-")) }), onTrialEnd: (_r, _d, _t, m) => void media.push(m!) });
    const record = result.records[0]!;
    const whole = mkdtempSync(join(tmpdir(), "whole-"));
    const paced = mkdtempSync(join(tmpdir(), "paced-"));
    let pauses = 0;
    const a = writeTrialArtifacts(whole, record, media[0]!, null, (t) => t, "all");
    const b = await writeTrialArtifactsPaced(async () => void pauses++, paced, record, media[0]!, null, (t) => t, "all");
    expect(b).toEqual(a);
    expect(pauses).toBe(5); // events | transcript and readable transcript | stereo tracks | conversation.wav | input.wav and output.wav
    const files = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length)).sort();
    expect(files(paced)).toEqual(files(whole));
    for (const f of files(whole)) expect(readFileSync(join(paced, f)).equals(readFileSync(join(whole, f))), f).toBe(true);
  }, 60_000);

  it("keeps the simulator's voice on disk beside the caller's speech when given a cache folder", async () => {
    const root = mkdtempSync(join(tmpdir(), "simulator-voice-"));
    const voice = memoizedEspeak("marin", root);
    expect(memoizedEspeak("marin", root)).toBe(voice); // one per process and folder
    const said = await voice.synthesize("Your table is booked.");
    const sidecars = readdirSync(join(root, ".audio_cache")).filter((f) => f.endsWith(".json"));
    expect(sidecars).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(root, ".audio_cache", sidecars[0]!), "utf8"))).toMatchObject({ text: "Your table is booked.", provider: "espeak-ng", voice: said.voice });
    expect(said.samples.length).toBeGreaterThan(24_000 * 0.5);
  }, 60_000);
});
