import { join } from "node:path";
import { interleaveStereo, pcm16FromBytes } from "../audio/pcm";
import { conversationTracks } from "../timeline/conversation";
import { pcm16Wav } from "../audio/wav";
import type { EvidenceCatalog } from "../judge/evidence";
import type { TrialRecord } from "../record/trial-record";
import type { TrialMedia } from "../trial/context";
import { artifactKey, writeFileAtomic } from "./files";
import { redactShapes, type Redact } from "./redact";

/**
 * Per-trial artifacts of evaluation-contract §7 that exist at every level: the event log (no audio
 * payloads, secrets redacted) and the transcript file (tool executions, world diff, checks, grades).
 * Returns the artifact paths relative to the run folder.
 */
export function writeTrialArtifacts(runDir: string, record: TrialRecord, media: TrialMedia | null = null, catalog: EvidenceCatalog | null = null, redact: Redact = redactShapes): Record<string, string> {
  const key = artifactKey(record.trial_id);
  const events = `events/${key}.jsonl`;
  const transcript = `transcripts/${key}.json`;
  writeFileAtomic(join(runDir, events), redact(record.events.map((e) => JSON.stringify(e)).join("\n") + (record.events.length ? "\n" : "")));
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
  };
  writeFileAtomic(join(runDir, transcript), redact(JSON.stringify(detail, null, 2) + "\n"));
  const paths: Record<string, string> = { events, transcript };
  const text = `${media ? `audio/${key}` : "transcripts"}/${media ? "conversation.transcript.txt" : `${key}.txt`}`;
  writeFileAtomic(join(runDir, text), redact(conversationTranscript(record)));
  paths.conversation_transcript = text;
  if (media) Object.assign(paths, writeTrialAudio(runDir, key, media));
  return paths;
}

/**
 * input.wav (the exact caller PCM sent), output.wav (the assistant's placed audio, gaps zero-filled) and
 * conversation.wav (stereo on one timeline: caller left, assistant right), evaluation-contract §7.
 */
function writeTrialAudio(runDir: string, key: string, media: TrialMedia): Record<string, string> {
  const dir = `audio/${key}`;
  const rate = media.sample_rate;
  const { caller: left, assistant: right } = conversationTracks(media);
  writeFileAtomic(join(runDir, dir, "input.wav"), pcm16Wav(pcm16FromBytes(media.input_pcm), rate));
  writeFileAtomic(join(runDir, dir, "output.wav"), pcm16Wav(media.assistant.track, rate));
  writeFileAtomic(join(runDir, dir, "conversation.wav"), pcm16Wav(interleaveStereo(left, right), rate, 2));
  return { input_wav: `${dir}/input.wav`, output_wav: `${dir}/output.wav`, conversation_wav: `${dir}/conversation.wav` };
}

const ms = (x: number) => Math.round(x);

/** The readable transcript of §7: `USER 4840..8100ms: text`, `DELEGATION …`, `TOOL …`, in time order. */
export function conversationTranscript(record: TrialRecord): string {
  const lines: Array<{ at: number; order: number; text: string }> = [];
  let order = 0;
  // RUN: a caller turn carries the action inferred from the recording (§4), e.g. `USER 1200..2400ms (INTERRUPT): …`.
  for (const t of record.turns) lines.push({ at: t.start_ms, order: order++, text: `${t.role === "user" ? "USER" : "ASSISTANT"} ${ms(t.start_ms)}..${ms(t.end_ms)}ms${t.action ? ` (${t.action})` : ""}: ${t.text}` });
  for (const d of record.delegations) lines.push({ at: d.created_ms, order: order++, text: `DELEGATION ${ms(d.created_ms)}ms: target=${d.target}` });
  for (const t of record.tool_executions) {
    const result = t.status === "completed" ? JSON.stringify(t.output ?? null) : JSON.stringify({ error: t.error });
    lines.push({ at: t.completed_ms, order: order++, text: `TOOL ${ms(t.completed_ms)}ms: name=${t.name} status=${t.status} arguments=${t.raw_arguments} result=${result}` });
  }
  return lines.sort((a, b) => a.at - b.at || a.order - b.order).map((l) => l.text).join("\n") + "\n";
}
