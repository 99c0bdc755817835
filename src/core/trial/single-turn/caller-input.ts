/** The caller's one turn prepared before the session: text, a WALK recording, or CRAWL's synthesized speech. */

import { basename, isAbsolute, relative, sep } from "node:path";
import { chunkPcm } from "../../audio/chunker";
import { concatPcm, pcm16DurationMs, pcm16ToBytes } from "../../audio/pcm";
import type { Scenario } from "../../dataset/schema";
import { sha256 } from "../../provenance/digest";
import { loadRecording } from "../../walk/recordings";
import type { CallerAudio } from "../context";
import { StageError } from "../errors";
import type { TrialState } from "../state";
import type { DeliveredInput } from "../stages/record";

/** The caller's one turn: what the record says reached the target, and for audio targets the PCM to send. */
export interface CallerInput extends DeliveredInput {
  audio: CallerAudio | null;
}

/** The caller's words as text: what a text-level target receives, and what a trial that never got further records. */
export function textInput(scenario: Scenario): CallerInput {
  return { record: { kind: "text", sha256: sha256(scenario.input.text), duration_ms: null }, digest_input: scenario.input.text, audio: null };
}

/**
 * Prepare the caller's turn before any session starts: the text for text targets; for audio targets the
 * case's recording (WALK) or synthesized speech of the text (CRAWL), cut into whole chunks.
 */
export async function prepareCallerInput(trial: TrialState): Promise<CallerInput> {
  const { ctx, scenario } = trial;
  const c = trial.case;
  const chunkMs = trial.audio.chunk_ms;
  if (!ctx.target.accepts.includes("audio")) return textInput(scenario);
  let pcm: Uint8Array;
  if (c.recording) {
    // WALK replays the saved recording exactly: its PCM data, never the container, never regenerated.
    let recording;
    try {
      recording = loadRecording(c.dataset_file, scenario, { id: c.recording.id, path: c.recording.path, condition: c.recording.condition, metadata: c.recording.metadata });
    } catch (e) {
      throw new StageError("recording", e);
    }
    pcm = concatPcm(chunkPcm(recording.pcm, { chunkMs }));
  } else {
    if (!ctx.speech) throw new StageError("speech", new Error(`target "${ctx.target_name}" takes audio, but no speech synthesizer was configured`));
    let speech;
    try {
      speech = await ctx.speech.synthesize(scenario.input.text, { signal: trial.signal });
    } catch (e) {
      throw new StageError("speech", e);
    }
    if (speech.sampleRate !== 24_000) throw new StageError("speech", new Error(`synthesizer returned ${speech.sampleRate} Hz; the transport needs 24,000 Hz`));
    pcm = concatPcm(chunkPcm(pcm16ToBytes(speech.samples), { chunkMs }));
  }
  const duration_ms = pcm16DurationMs(pcm.length);
  const speech = ctx.speech;
  const record: CallerInput["record"] = c.recording
    ? { kind: "recording", sha256: sha256(pcm), duration_ms, recording: { id: c.recording.id, path: c.recording.declared_path, dataset: portablePath(ctx.package_dir, c.dataset_file), condition: c.recording.condition, metadata: c.recording.metadata } }
    : { kind: "synthetic", sha256: sha256(pcm), duration_ms, ...(speech?.provider ? { speech: { provider: speech.provider, model: speech.model ?? "", voice: speech.voice ?? "", ...(speech.service ? { endpoint: speech.service.endpoint, credential: speech.service.credential } : {}) } } : {}) };
  return { record, digest_input: pcm, audio: { pcm, start_ms: 0 } };
}

/** `file` relative to the package folder, with '/' separators; its name alone when there is no package folder or it lies outside. */
function portablePath(packageDir: string | undefined, file: string): string {
  const rel = packageDir ? relative(packageDir, file) : "";
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel.split(sep).join("/") : basename(file);
}
