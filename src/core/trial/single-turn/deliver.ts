/** Delivering the caller's one turn: as text, or as audio streamed chunk by chunk until the response is complete. */

import { chunkPcm } from "../../audio/chunker";
import { AudioPacer } from "../../audio/pacer";
import { pcm16DurationMs } from "../../audio/pcm";
import type { TargetSession } from "../../target/types";
import type { CallerAudio } from "../context";
import { StageError } from "../errors";
import type { DeliveryEnd } from "../stages/completion";
import type { TrialState } from "../state";
import type { ResponseCompletion } from "./response-completion";

/** Text input delivery: the caller's words in one turn; the target's `respond()` resolves when it has answered. */
export function deliverText(trial: TrialState, session: TargetSession): Promise<void> {
  if (!session.respond) throw new StageError("respond", new Error(`target "${trial.ctx.target_name}" takes text but its session has no respond()`));
  const text = trial.scenario.input.text;
  trial.log("harness", "input.delivered", { kind: "text", characters: text.length });
  return session.respond({ kind: "text", text });
}

/**
 * Audio input delivery: stream the caller audio on absolute deadlines, then keep the microphone open with
 * silence until the response is complete (docs/audio-and-metrics.md) or the response timeout passes.
 */
export async function deliverAudio(trial: TrialState, session: TargetSession, caller: CallerAudio, completion: ResponseCompletion): Promise<DeliveryEnd> {
  const { clock, audio } = trial;
  if (!session.sendAudio) throw new StageError("respond", new Error(`target "${trial.ctx.target_name}" takes audio but its session has no sendAudio()`));
  const send = session.sendAudio.bind(session);
  const pcm = caller.pcm;
  const pacer = new AudioPacer({
    clock,
    chunkMs: audio.chunk_ms,
    stream: "caller",
    signal: trial.signal,
    onLag: (lag) => trial.log("harness", "audio.pacing_lag", { lag_ms: lag.lag_ms, chunk_ms: lag.chunk_ms, stream: lag.stream }),
  });
  const chunks = chunkPcm(pcm, { chunkMs: audio.chunk_ms });
  let first = true;
  trial.log("harness", "caller_audio.started", { bytes: pcm.length, chunks: chunks.length, chunk_ms: audio.chunk_ms });
  await pacer.play(chunks, (chunk, timing) => {
    if (first) caller.start_ms = timing.sent_ms;
    first = false;
    send(chunk);
  });
  const callerEnd = caller.start_ms + pcm16DurationMs(pcm.length);
  await clock.sleepUntil(callerEnd, trial.signal);
  completion.callerFinished(callerEnd);
  trial.log("harness", "caller_audio.finished", { start_ms: caller.start_ms, end_ms: callerEnd });
  const stop = new AbortController();
  let result = "response_timeout" as DeliveryEnd;
  await pacer.streamSilenceUntil(stop.signal, (chunk, timing) => {
    send(chunk);
    if (completion.complete(timing.sent_ms)) {
      result = "complete";
      stop.abort();
    } else if (timing.sent_ms >= callerEnd + audio.response_timeout_ms) stop.abort();
  });
  const stats = pacer.stats();
  trial.log("harness", "audio.pacing", { chunks: stats.chunks, lag_events: stats.lag_events, max_lag_ms: stats.max_lag_ms, total_lag_ms: stats.total_lag_ms });
  trial.log("harness", result === "complete" ? "response.complete" : "response.timeout", { caller_end_ms: callerEnd });
  return result;
}

/** No complete response in time: the error names what the completion rule was still waiting for. */
export function responseTimeout(trial: TrialState, completion: ResponseCompletion): string {
  const waiting = completion.waitingFor(trial.clock.now());
  return `response_timeout: no complete response within ${trial.audio.response_timeout_ms / 1000} s of the end of caller audio (still waiting for: ${waiting.join(", ") || "nothing"})`;
}
