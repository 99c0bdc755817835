/**
 * `crashlab audio extract`: a trial's single tracks, cut from conversation.wav (the one recording a run
 * keeps). The caller's input is checked against the sha256 its record holds, so the file extracted is
 * provably the exact audio that was sent.
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pcm16FromBytes } from "../audio/pcm";
import { pcm16Wav, readWav, WavError } from "../audio/wav";
import { sha256 } from "../provenance/digest";
import { artifactKey, writeFileAtomic } from "../files/atomic";
import type { AudioNote } from "../report/artifacts";
import { parseFlags } from "./flags";
import { machineFault } from "../files/machine-fault";
import { pathProblem, readRunFile, RunFolderError, writeRunFile } from "../run-folder/files";
import { shown, shownValue } from "../run-folder/text";
import { UsageError } from "./usage-error";
import type { ViewIO } from "./view";

export const AUDIO_HELP = `crashlab audio extract — cut one track out of a trial's conversation.wav

Usage: crashlab audio extract <run-dir> --trial <id> [--track input|caller|assistant] [--output <file>]

  --trial <id>     the trial, e.g. harbor_001#1
  --track <name>   input (default): the exact caller audio sent, checked against the record's sha256;
                   caller: the left channel on the conversation's timeline; assistant: the right channel
  --output <file>  where to write the mono WAV (default: audio/<trial>/<track>.wav in the run folder)

A run keeps conversation.wav (caller left, assistant right) for the trials its --artifacts policy names;
a trial whose audio was not kept has nothing to extract, and this says so.`;

const TRACKS = ["input", "caller", "assistant"] as const;

export async function audioCommand(argv: string[], io: ViewIO): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
    io.stdout(AUDIO_HELP + "\n");
    return sub === undefined ? 2 : 0;
  }
  if (sub !== "extract") throw new UsageError(`unknown audio command "${sub}"; the one there is: crashlab audio extract`);
  const { values, positionals } = parseFlags(rest, { trial: { type: "string" }, track: { type: "string" }, output: { type: "string" }, help: { type: "boolean", short: "h" } }, 1);
  if (values.help) {
    io.stdout(AUDIO_HELP + "\n");
    return 0;
  }
  if (positionals.length !== 1 || values.trial === undefined) throw new UsageError("usage: crashlab audio extract <run-dir> --trial <id> [--track input|caller|assistant] [--output <file>]");
  const track = (values.track ?? "input") as (typeof TRACKS)[number];
  if (!TRACKS.includes(track)) throw new UsageError(`--track takes one of ${TRACKS.join(", ")} (got "${values.track}")`);
  const runDir = resolve(io.cwd, positionals[0]!);
  if (!existsSync(runDir) || !statSync(runDir).isDirectory()) throw new UsageError(`${runDir} is not a folder: pass one run's folder, e.g. results/<run-id>`);
  const key = artifactKey(values.trial);
  const transcriptRel = `transcripts/${key}.json`;
  const transcriptFile = join(runDir, transcriptRel);
  // A trial id is a file name here: one that is not a plain name (a '/', '..') names no trial.
  if (pathProblem(transcriptRel) !== null || key.includes("/")) throw new UsageError(`--trial ${shownValue(values.trial)} is not a trial id (<case>#<repetition>, e.g. harbor_001#1)`);
  // Through the run folder's checks: a link out of the folder, a FIFO or a folder in the file's place is refused.
  const transcriptBytes = readRunFile(runDir, transcriptRel, NOTE_LIMIT);
  if (!transcriptBytes) throw new UsageError(`run folder ${runDir} has no trial "${shown(values.trial)}" (no ${transcriptRel}); a trial id is <case>#<repetition>`);
  const note = readNote(transcriptFile, transcriptBytes);
  if (!note) throw new UsageError(`trial ${values.trial} has no audio to extract: it ran at the text level, or its run predates conversation.wav notes (its audio/ folder holds whatever it wrote)`);
  if (!note.kept) throw new UsageError(`the audio of trial ${values.trial} was not kept: ${note.reason}`);
  const wavFile = join(runDir, note.conversation_wav);
  const wavBytes = readRunFile(runDir, note.conversation_wav, { bytes: 1 << 30, what: "a conversation.wav may hold; it was not written by crashlab, so no track is cut from it" });
  if (!wavBytes) throw new UsageError(`${wavFile} is missing: the run folder was moved without its audio/ folder, or the file was deleted`);
  // A file cut short, or whose header lies about its size, gives a partial track: refuse it rather than write one.
  const damaged = (what: string) => new UsageError(`${wavFile} ${what}: the run folder was damaged or the file altered, so no track is cut from it`);
  let wav: ReturnType<typeof readWav>;
  try {
    wav = readWav(wavBytes, wavFile);
  } catch (error) {
    if (error instanceof WavError) throw damaged(`is not a readable WAV file (${shown(error.message, 300)})`);
    throw error;
  }
  if (wav.truncated) throw damaged("is cut short (its header promises more audio than the file holds)");
  if (wav.channels !== 2 || wav.sampleRate !== note.sample_rate) throw damaged(`is ${wav.channels} channel(s) at ${wav.sampleRate} Hz, not the 2 channels at ${note.sample_rate} Hz the record describes`);
  if (wav.format !== "pcm" || wav.bitsPerSample !== 16 || wav.partialFrameBytes > 0) throw damaged(`is not whole frames of 16-bit PCM (${wav.bitsPerSample}-bit ${wav.format}, ${wav.partialFrameBytes} byte(s) of a partial frame at the end)`);
  const stereo = pcm16FromBytes(wav.data);
  const frames = stereo.length >> 1;
  if (frames < note.input_offset_samples + note.input_samples)
    throw damaged(`holds ${frames} samples per channel, fewer than the ${note.input_offset_samples + note.input_samples} that reach the end of the caller's input`);
  const channel = (c: 0 | 1) => {
    const out = new Int16Array(frames);
    for (let i = 0; i < frames; i++) out[i] = stereo[2 * i + c]!;
    return out;
  };
  let samples: Int16Array;
  let check = "";
  if (track === "assistant") samples = channel(1);
  else if (track === "caller") samples = channel(0);
  else {
    samples = channel(0).slice(note.input_offset_samples, note.input_offset_samples + note.input_samples);
    const digest = sha256(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength));
    if (samples.length !== note.input_samples || digest !== note.input_sha256) {
      io.stderr(`crashlab: the input cut from ${wavFile} does not match the record's sha256 (${note.input_sha256}, got ${digest}): the file was altered\n`);
      return 1;
    }
    check = `, sha256 ${digest} = the record's input`;
  }
  const inRunFolder = `audio/${key}/${track}.wav`;
  const output = values.output !== undefined ? resolve(io.cwd, values.output) : join(runDir, inRunFolder);
  const given = values.output !== undefined ? `--output ${values.output}` : output;
  if (existsSync(output) && statSync(output).isDirectory()) throw new UsageError(`${given} is a folder; give the file to write, e.g. ${join(values.output ?? output, `${track}.wav`)}`);
  try {
    // Into the run folder never through a link (its audio/<trial>/ folder included); --output is the user's own path.
    if (values.output === undefined) writeRunFile(runDir, inRunFolder, pcm16Wav(samples, wav.sampleRate));
    else writeFileAtomic(output, pcm16Wav(samples, wav.sampleRate));
  } catch (error) {
    // A full or read-only disk is the machine's fault (exit 3, one line); a path that cannot hold a file is the user's.
    if (machineFault(error) || error instanceof RunFolderError) throw error;
    throw new UsageError(`${given} cannot be written (${(error as NodeJS.ErrnoException).code ?? shown((error as Error).message)}); give a file in a folder you can write to`);
  }
  io.stdout(`wrote ${output} (${track}, ${samples.length} samples at ${wav.sampleRate} Hz${check})\n`);
  return 0;
}

/**
 * The audio note of a trial's transcript file, checked: a damaged note would otherwise cut the wrong
 * samples, or read a file outside the run folder. Null when the trial has none (a text-level trial).
 */
const NOTE_LIMIT = { bytes: 256 << 20, what: "a trial's transcript file may hold (one trial's conversation); it was not written by crashlab, so no track is cut from it" };

function readNote(file: string, bytes: Buffer): AudioNote | null {
  const bad = (what: string) => new UsageError(`${file} ${what}; the run folder was edited or damaged, so no track is cut from it`);
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw bad(`is not valid JSON (${shown((error as Error).message)})`);
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw bad("does not hold a JSON object");
  const note = (doc as { audio?: unknown }).audio;
  if (note === undefined || note === null) return null;
  if (typeof note !== "object" || Array.isArray(note)) throw bad("has an audio note that is not an object");
  const n = note as Record<string, unknown>;
  if (n.kept === false) return { kept: false, reason: typeof n.reason === "string" ? shown(n.reason, 300) : "(no reason recorded)" };
  if (n.kept !== true) throw bad(`has an audio note whose kept is ${shownValue(n.kept)}, not true or false`);
  const wav = n.conversation_wav;
  // The rule every artifact path follows: a plain relative path, nothing outside the run folder.
  const problem = typeof wav === "string" ? pathProblem(wav) : "is not a string";
  if (problem) throw bad(`has an audio note whose conversation_wav is ${shownValue(wav)}, not a path inside the run folder (it ${problem})`);
  const whole = (k: string, min: number) => {
    if (!Number.isSafeInteger(n[k]) || (n[k] as number) < min) throw bad(`has an audio note whose ${k} is ${shownValue(n[k])}, not a whole number of at least ${min}`);
  };
  whole("sample_rate", 1);
  whole("input_offset_samples", 0);
  whole("input_samples", 0);
  if (typeof n.input_sha256 !== "string") throw bad("has an audio note without input_sha256");
  return n as AudioNote;
}
