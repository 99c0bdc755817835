/**
 * WALK's recorded caller inputs (docs/datasets.md `input.recordings[]`, docs/audio-and-metrics.md): resolving a recording's path against
 * its dataset file and checking, before any session starts, that it is a non-empty mono signed
 * 16-bit PCM WAV at 24,000 Hz. WALK replays the file's PCM exactly, so anything else is refused with
 * a message that names the dataset, scenario, recording and path, says what the file is, and gives
 * the command that converts it. Synchronous, like loadDataset, so a PLAN can be built at import time.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from "node:path";
import { describeWav, readWav, WavError, type WavAudio } from "../audio/wav";
import { formatBytes, InputFileError, readInputFile } from "../dataset/input-file";
import type { Dataset, Scenario } from "../dataset/schema";
import { UserError } from "../user-error";

/** Transport rate: the only rate a WALK recording may have (docs/audio-and-metrics.md). */
export const RECORDING_SAMPLE_RATE = 24_000;
/**
 * The largest recording file read (checked before reading): about 23 minutes of 24 kHz mono PCM16,
 * far longer than any trial may last.
 */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;

export type RecordingErrorCode =
  | "missing_file"
  | "not_a_file"
  | "too_large"
  | "partial_sample"
  | "unreadable"
  | "empty_file"
  | "not_wav"
  | "truncated_header"
  | "truncated_data"
  | "bad_container"
  | "unsupported_format"
  | "no_samples"
  | "outside_folder";

/** What the functions below need of a recording entry. */
export interface RecordingEntry {
  id: string;
  path: string;
  condition?: string;
  metadata?: Record<string, unknown>;
}

/** A recording WALK cannot replay; one paragraph naming where it is, what it is and what to do. */
export class RecordingError extends UserError {
  override readonly name = "RecordingError";
  constructor(
    readonly code: RecordingErrorCode,
    readonly dataset: string,
    readonly scenario_id: string,
    readonly recording_id: string,
    /** The resolved (absolute) path. */
    readonly path: string,
    /** What the file is (or why it cannot be read). */
    readonly problem: string,
    /** What to do about it. */
    readonly fix: string,
    /** The path as the dataset wrote it. */
    readonly declared_path = path,
  ) {
    const where = declared_path === path ? path : `${declared_path} → ${path}`;
    super(
      `Recording "${recording_id}" of scenario "${scenario_id}" in dataset ${dataset} (${where}) cannot be used: ${problem}. ` +
        (code === "outside_folder" ? `${fix}.` : `WALK replays recordings exactly and needs a non-empty mono 16-bit signed PCM WAV at 24,000 Hz; ${fix}.`),
    );
  }
}

/** The recording's file: absolute paths stay as they are, relative ones resolve against the dataset file's folder. */
export function resolveRecording(datasetFile: string, _scenario: Pick<Scenario, "id">, recording: Pick<RecordingEntry, "path">): string {
  return isAbsolute(recording.path) ? resolve(recording.path) : resolve(dirname(resolve(datasetFile)), recording.path);
}

export interface LoadedRecording {
  scenario_id: string;
  recording_id: string;
  /** Absolute path of the WAV file. */
  path: string;
  /** The PCM16 LE mono 24 kHz bytes WALK streams (the WAV's data chunk, never the container). */
  pcm: Uint8Array;
  sample_rate: typeof RECORDING_SAMPLE_RATE;
  samples: number;
  duration_ms: number;
  /** sha256 of `pcm`: the input audio bytes of the provenance digest. */
  sha256: string;
  /** sha256 of the whole file as stored. */
  file_sha256: string;
  condition: string;
  metadata: Record<string, unknown>;
}

/** Read and check one recording; throws RecordingError for anything WALK cannot replay exactly. */
export function loadRecording(datasetFile: string, scenario: Pick<Scenario, "id">, recording: RecordingEntry): LoadedRecording {
  const path = resolveRecording(datasetFile, scenario, recording);
  const fail = (code: RecordingErrorCode, problem: string, fix: string): never => {
    throw new RecordingError(code, datasetFile, scenario.id, recording.id, path, problem, fix, recording.path);
  };

  // Symbolic links are followed, but what they reach must lie in the dataset's folder, like a path written
  // in the dataset (no '..'): a link is a path too, and a dataset from elsewhere could carry one to any
  // file. What it reaches must still be a regular file within the size limit.
  if (!isAbsolute(recording.path)) {
    const outside = escapesFolder(datasetFile, path);
    if (outside)
      fail(
        "outside_folder",
        `field input.recordings[].path leads through a symbolic link to ${outside.real}, outside the dataset's folder ${outside.root}`,
        `copy the file into the dataset's folder (cp -L ${shellQuote(recording.path)} …) and point the path at the copy; a link may only reach a file inside the dataset's folder, or git-annex's objects of the dataset's own repository`,
      );
  }
  let bytes: Uint8Array;
  try {
    bytes = readInputFile(path, MAX_RECORDING_BYTES);
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    switch (error.problem) {
      case "missing":
        fail("missing_file", "the file does not exist", `check input.recordings[].path (a relative path is resolved against the dataset's folder, ${dirname(resolve(datasetFile))})`);
        break;
      case "not_a_file":
        if (error.detail.startsWith("it is a directory")) fail("not_a_file", "the path is a directory, not a file", "point input.recordings[].path at the WAV file itself");
        fail("not_a_file", `the path is ${error.detail.replace(/^it is /, "")}`, "point input.recordings[].path at a WAV file (only regular files are read)");
        break;
      case "too_large":
        fail("too_large", `the file is ${error.detail.replace(/^it is /, "")}`, `a recording may be at most ${formatBytes(MAX_RECORDING_BYTES)} (about 23 minutes of 24 kHz mono PCM16); trim it to the caller's request`);
        break;
      default:
        fail("unreadable", error.detail, "check the file's permissions");
    }
  }
  if (bytes!.byteLength === 0) fail("empty_file", "the file is empty (0 bytes)", "record or export the caller's request again");

  let wav: WavAudio;
  try {
    wav = readWav(bytes!);
  } catch (error) {
    if (!(error instanceof WavError)) throw error;
    const what = error.message.split("; ")[0]!;
    switch (error.code) {
      case "truncated_header":
        fail("truncated_header", `${what.startsWith("WAV header") ? what : `the WAV header is cut off: ${what}`} (${bytes!.byteLength} bytes in all)`, "re-export or re-record it: a file cut off inside its header holds no usable audio");
        break;
      case "not_wav":
        fail("not_wav", what, `convert it with: ${ffmpegCommand(path)}, then point the recording's path at the converted file`);
        break;
      case "missing_data":
        fail("truncated_header", what, "re-export or re-record it: the file ends before its audio starts");
        break;
      default:
        fail("bad_container", what, `convert it with: ${ffmpegCommand(path)}, then point the recording's path at the converted file`);
    }
  }
  if (wav!.truncated) {
    fail(
      "truncated_data",
      `the ${describeWav(wav!)} is cut off: its data chunk declares more audio than the file holds (the file was truncated mid-write or mid-copy)`,
      "re-export or copy it again from the original; WALK does not replay a partial recording",
    );
  }
  if (wav!.frames === 0) fail("no_samples", `the ${describeWav(wav!)} contains no samples (its data chunk is empty)`, "record or export the caller's request again");
  const transport = wav!.format === "pcm" && wav!.bitsPerSample === 16 && wav!.channels === 1 && wav!.sampleRate === RECORDING_SAMPLE_RATE;
  if (!transport) {
    fail("unsupported_format", `the file is a ${describeWav(wav!)}`, `convert it with: ${soxCommand(path)}, then point the recording's path at the converted file`);
  }

  if (wav!.partialFrameBytes > 0) {
    fail(
      "partial_sample",
      `the ${describeWav(wav!)}'s data chunk ends with ${wav!.partialFrameBytes} byte(s) that are not a whole sample (${wav!.data.byteLength + wav!.partialFrameBytes} bytes of audio; 16-bit mono needs an even count), so the file was damaged`,
      "re-export it, or copy it again from the original; WALK replays every byte of a recording and will not drop part of a sample",
    );
  }
  const pcm = wav!.data;
  return {
    scenario_id: scenario.id,
    recording_id: recording.id,
    path,
    pcm,
    sample_rate: RECORDING_SAMPLE_RATE,
    samples: wav!.frames,
    duration_ms: (wav!.frames * 1000) / RECORDING_SAMPLE_RATE,
    sha256: sha256(pcm),
    file_sha256: sha256(bytes!),
    condition: recording.condition ?? "clean",
    metadata: { ...(recording.metadata ?? {}) },
  };
}

/**
 * Where a recording's real path (every link followed) lies outside its dataset's real folder, that path
 * and the folder; null when it is inside, or when it cannot be resolved (missing, a loop: said by the read).
 * git-annex keeps a repository's files as links into its own `.git/annex/objects`, so a target there, in
 * the repository that holds the dataset, is the dataset's own file.
 */
function escapesFolder(datasetFile: string, path: string): { real: string; root: string } | null {
  let real: string;
  let root: string;
  try {
    real = realpathSync(path);
    root = realpathSync(dirname(resolve(datasetFile)));
  } catch {
    return null;
  }
  if (within(real, root)) return null;
  // Only a regular file escapes: a device or a FIFO is refused as what it is by the read.
  try {
    if (!statSync(real).isFile()) return null;
  } catch {
    return null;
  }
  const annex = annexObjects(root);
  if (annex && within(real, annex)) return null;
  return { real, root };
}

function within(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/** The real `annex/objects` folder of the git repository enclosing `dir` (`.git` a folder, or a worktree's `gitdir:` file). */
function annexObjects(dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    const dotGit = join(at, ".git");
    if (existsSync(dotGit)) {
      try {
        let gitDir = dotGit;
        if (statSync(dotGit).isFile()) {
          const pointer = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
          if (!pointer) return null;
          gitDir = resolve(at, pointer);
          // A linked worktree's objects live in the common folder of the main repository.
          const common = join(gitDir, "commondir");
          if (existsSync(common)) gitDir = resolve(gitDir, readFileSync(common, "utf8").trim());
        }
        const objects = join(gitDir, "annex", "objects");
        return existsSync(objects) ? realpathSync(objects) : null;
      } catch {
        return null;
      }
    }
    if (dirname(at) === at) return null;
  }
}

/** Every recording of every scenario checked; returns all problems (empty when all are usable). */
export function validateRecordings(dataset: Pick<Dataset, "scenarios">, file: string): RecordingError[] {
  const problems: RecordingError[] = [];
  for (const scenario of dataset.scenarios) {
    for (const recording of scenario.input.recordings ?? []) {
      try {
        loadRecording(file, scenario, recording);
      } catch (error) {
        if (error instanceof RecordingError) problems.push(error);
        else throw error;
      }
    }
  }
  return problems;
}

/** The sox command that turns any WAV into the transport format, written for this file. */
export function soxCommand(path: string): string {
  return `sox ${shellQuote(path)} -r 24000 -c 1 -b 16 -e signed-integer ${shellQuote(convertedPath(path))}`;
}

/** For containers sox may not read (MP3, M4A, …). */
export function ffmpegCommand(path: string): string {
  return `ffmpeg -i ${shellQuote(path)} -ar 24000 -ac 1 -c:a pcm_s16le ${shellQuote(convertedPath(path))}`;
}

/** `calls/maya.mp3` → `calls/maya.24k.wav`. */
function convertedPath(path: string): string {
  return join(dirname(path), `${basename(path, extname(path))}.24k.wav`);
}

function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
