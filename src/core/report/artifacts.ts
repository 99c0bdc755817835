/** A trial's artifact files: its event log, transcripts and, when the policy keeps its audio, conversation.wav. */

import { gzipSync } from "node:zlib";
import { interleaveStereo } from "../audio/pcm";
import { conversationTracks } from "../timeline/conversation";
import { pcm16Wav, writeWav } from "../audio/wav";
import type { EvidenceCatalog } from "../judge/evidence";
import type { TrialRecord } from "../record/trial-record";
import type { ReferenceTranscript, TrialMedia } from "../trial/context";
import { artifactKey } from "../files/atomic";
import { writeRunFile } from "../run-folder/files";
import { redactShapes, type Redact } from "../services/redact";
import { staticDefault, type ArtifactPolicy } from "../settings/schema";

/** Which trials keep their audio (`--artifacts`): every trial, failures (the default), or none. */
export { ARTIFACT_POLICIES, type ArtifactPolicy } from "../settings/schema";
export const DEFAULT_ARTIFACT_POLICY: ArtifactPolicy = staticDefault("artifacts");

/**
 * Whether a trial's audio is kept, and if not, why (said in the report). `failures` keeps what someone
 * will want to listen to: every trial that did not pass, and each case's first repetition as a sample
 * of the passing ones.
 */
export function audioKept(policy: ArtifactPolicy, record: Pick<TrialRecord, "status" | "repetition">): { kept: true } | { kept: false; reason: string } {
  if (policy === "all") return { kept: true };
  if (policy === "none") return { kept: false, reason: "this run kept no audio (--artifacts none)" };
  if (record.status !== "passed" || record.repetition === 1) return { kept: true };
  return { kept: false, reason: `a passed trial after the first repetition: this run kept the audio of failed, inconclusive and errored trials and of each case's first repetition (--artifacts failures); run with --artifacts all to keep every trial's` };
}

/** What transcripts/<trial>.json says of the trial's audio: where conversation.wav's input track lies, or why it was not kept. */
export type AudioNote =
  | { kept: true; conversation_wav: string; sample_rate: number; input_offset_samples: number; input_samples: number; input_sha256: string }
  | { kept: false; reason: string };

/**
 * Per-trial artifacts of docs/results.md that exist at every level: the event log (gzipped JSON
 * lines, no audio payloads, secrets redacted) and the transcript file (tool executions, world diff,
 * checks, grades), plus conversation.wav when the policy keeps the trial's audio. Returns the artifact
 * paths relative to the run folder.
 */
export function writeTrialArtifacts(
  runDir: string,
  record: TrialRecord,
  media: TrialMedia | null = null,
  catalog: EvidenceCatalog | null = null,
  redact: Redact = redactShapes,
  policy: ArtifactPolicy = "all",
  reference?: ReferenceTranscript,
): Record<string, string> {
  const steps = artifactSteps(runDir, record, media, catalog, redact, policy, reference);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same files, written a piece at a time: between pieces (events, transcript, readable transcript,
 * audio) `pause` lets the event loop run — in real time, the other sessions' audio ticks, which a trial's
 * whole set of files (tens of milliseconds of CPU) in one piece would make late.
 */
export async function writeTrialArtifactsPaced(
  pause: () => Promise<void>,
  runDir: string,
  record: TrialRecord,
  media: TrialMedia | null,
  catalog: EvidenceCatalog | null,
  redact: Redact,
  policy: ArtifactPolicy,
  reference?: ReferenceTranscript,
): Promise<Record<string, string>> {
  const steps = artifactSteps(runDir, record, media, catalog, redact, policy, reference);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

function* artifactSteps(
  runDir: string,
  record: TrialRecord,
  media: TrialMedia | null,
  catalog: EvidenceCatalog | null,
  redact: Redact,
  policy: ArtifactPolicy,
  reference?: ReferenceTranscript,
): Generator<void, Record<string, string>> {
  const key = artifactKey(record.trial_id);
  const events = `events/${key}.jsonl.gz`;
  const transcript = `transcripts/${key}.json`;
  // Events compress about tenfold (repeated keys and ids); gzip keeps them line-oriented for zcat | jq.
  writeRunFile(runDir, events, gzipSync(redact(record.events.map((e) => JSON.stringify(e)).join("\n") + (record.events.length ? "\n" : "")), { level: 9 }));
  yield;
  const keep = media ? audioKept(policy, record) : null;
  const audioNote: AudioNote | null = !media || !keep ? null : keep.kept ? conversationNote(key, media, record) : { kept: false, reason: keep.reason };
  const detail = {
    trial_id: record.trial_id,
    status: record.status,
    error: record.error,
    turns: record.turns,
    delegations: record.delegations,
    tool_executions: record.tool_executions,
    world: record.world,
    dimensions: record.dimensions,
    checks: record.checks,
    ...(record.procedure ? { procedure: record.procedure } : {}),
    assessments: record.assessments,
    semantic_grades: record.assessments.filter((a) => a.kind === "semantic"),
    evidence_catalog: catalog,
    limits: record.limits,
    provenance: record.provenance,
    // RUN: the conversation as the harness saw it (the caller's utterances with their intents, the relay).
    ...(record.conversation ? { conversation: record.conversation } : {}),
    // The caller's words as the evaluator knows them beside what the target's own recognition reported.
    ...(reference ? { reference_transcript: reference } : {}),
    heard_transcript: heardTranscript(record),
    ...(audioNote ? { audio: audioNote } : {}),
  };
  // One line of JSON: a machine artifact (the report reads it; conversation.transcript.txt is for people).
  writeRunFile(runDir, transcript, redact(JSON.stringify(detail) + "\n"));
  yield;
  const paths: Record<string, string> = { events, transcript };
  // Beside conversation.wav when the audio is kept; with the other transcripts otherwise.
  const text = media && keep?.kept ? `audio/${key}/conversation.transcript.txt` : `transcripts/${key}.txt`;
  writeRunFile(runDir, text, redact(conversationTranscript(record)));
  paths.conversation_transcript = text;
  if (media && keep?.kept) {
    yield;
    Object.assign(paths, yield* writeTrialAudio(runDir, key, media));
  }
  return paths;
}

const conversationPath = (key: string) => `audio/${key}/conversation.wav`;

/**
 * What the target heard: its own input transcript, as it reported it (one line per stretch of caller speech
 * it recognized between assistant turns), read from the trial's events.
 */
export function heardTranscript(record: TrialRecord): { source: "target_input_transcript"; text: string; lines: string[] } {
  const lines: string[] = [];
  let open = false;
  for (const e of record.events) {
    if (e.source !== "target" || e.type !== "transcript.delta") continue;
    const data = e.data as { role?: string; text?: string };
    if (data.role !== "user") {
      open = false;
      continue;
    }
    if (open) lines[lines.length - 1] += data.text ?? "";
    else lines.push(data.text ?? "");
    open = true;
  }
  const trimmed = lines.map((l) => l.trim()).filter(Boolean);
  return { source: "target_input_transcript", text: trimmed.join("\n"), lines: trimmed };
}

/** Where the exact caller input lies in conversation.wav's left channel (what `crashlab audio extract` cuts out). */
function conversationNote(key: string, media: TrialMedia, record: TrialRecord): AudioNote {
  return {
    kept: true,
    conversation_wav: conversationPath(key),
    sample_rate: media.sample_rate,
    input_offset_samples: Math.round((media.caller_start_ms * media.sample_rate) / 1000),
    input_samples: media.input_pcm.length >> 1,
    input_sha256: record.input.sha256,
  };
}

/**
 * conversation.wav: stereo on one timeline, caller left (the exact caller PCM sent, placed where it was
 * sent), assistant right (its placed audio, gaps zero-filled), docs/results.md. Beside it, as the
 * reference harness lays a trial out: input.wav, the exact caller PCM sent (mono, from its first chunk),
 * and output.wav, the assistant audio captured (mono, each stretch as it arrived, without the timeline's gaps).
 */
function* writeTrialAudio(runDir: string, key: string, media: TrialMedia): Generator<void, Record<string, string>> {
  const rate = media.sample_rate;
  const { caller: left, assistant: right } = conversationTracks(media);
  const stereo = interleaveStereo(left, right);
  yield;
  writeRunFile(runDir, conversationPath(key), pcm16Wav(stereo, rate, 2));
  yield;
  const input = `audio/${key}/input.wav`;
  const output = `audio/${key}/output.wav`;
  // The caller PCM as sent is already PCM16 little-endian bytes: written as it is.
  writeRunFile(runDir, input, writeWav({ sampleRate: rate, channels: 1, data: media.input_pcm }));
  writeRunFile(runDir, output, pcm16Wav(capturedAudio(media), rate, 1));
  return { conversation_wav: conversationPath(key), input_wav: input, output_wav: output };
}

/** The assistant audio as captured: its placed stretches, one after the other. */
function capturedAudio(media: TrialMedia): Int16Array {
  const { spans, track } = media.assistant;
  const out = new Int16Array(spans.reduce((n, s) => n + s.sample_count, 0));
  let at = 0;
  for (const s of spans) {
    out.set(track.subarray(s.sample_offset, s.sample_offset + s.sample_count), at);
    at += s.sample_count;
  }
  return out;
}

const ms = (x: number) => Math.round(x);

/** The readable transcript of docs/results.md: `USER 4840..8100ms: text`, `DELEGATION …`, `TOOL …`, in time order. */
export function conversationTranscript(record: TrialRecord): string {
  const lines: Array<{ at: number; order: number; text: string }> = [];
  let order = 0;
  // RUN: a caller turn carries the action inferred from the recording (docs/audio-and-metrics.md), e.g. `USER 1200..2400ms (INTERRUPT): …`.
  for (const t of record.turns) lines.push({ at: t.start_ms, order: order++, text: `${t.role === "user" ? "USER" : "ASSISTANT"} ${ms(t.start_ms)}..${ms(t.end_ms)}ms${t.action ? ` (${t.action})` : ""}: ${t.text}` });
  for (const d of record.delegations) lines.push({ at: d.created_ms, order: order++, text: `DELEGATION ${ms(d.created_ms)}ms: target=${d.target}` });
  for (const t of record.tool_executions) {
    const result = t.status === "completed" ? JSON.stringify(t.output ?? null) : JSON.stringify({ error: t.error });
    lines.push({ at: t.completed_ms, order: order++, text: `TOOL ${ms(t.completed_ms)}ms: name=${t.name} status=${t.status} arguments=${t.raw_arguments} result=${result}` });
  }
  return lines.sort((a, b) => a.at - b.at || a.order - b.order).map((l) => l.text).join("\n") + "\n";
}
