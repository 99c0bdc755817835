/**
 * Real time: synthesize every CRAWL caller line before the first trial starts. A trial's caller speech is
 * otherwise made right before its session opens, on the thread that is pacing the other sessions' audio;
 * made ahead, each trial reads it from the speech cache instead. Only a caching synthesizer is asked (one
 * without a cache would simply make everything twice), a few lines at a time (a remote speech service
 * answers in parallel), and a line that fails is left for its trial, which records the error at its stage.
 */
import { CachedSynthesizer } from "../speech/cache";
import type { CallerSpeech } from "../trial/context";
import type { TrialSpec } from "./plan";

const IN_FLIGHT = 4;

export async function prefetchCallerSpeech(trials: readonly TrialSpec[], speech: CallerSpeech | undefined, signal?: AbortSignal): Promise<number> {
  if (!(speech instanceof CachedSynthesizer)) return 0;
  const texts = [...new Set(trials.filter((t) => t.case.kind === "crawl" && !t.case.recording).map((t) => t.case.scenario.input.text))];
  let next = 0;
  const lane = async () => {
    while (next < texts.length && !signal?.aborted) {
      const text = texts[next++]!;
      await speech.synthesize(text, signal ? { signal } : {}).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, texts.length) }, lane));
  return texts.length;
}
