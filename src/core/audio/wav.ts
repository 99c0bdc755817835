/**
 * WAV container reading and writing (docs/audio-and-metrics.md transport rule, docs/results.md artifact files).
 *
 * The reader takes the files people actually have: extra chunks (LIST, fact, bext, JUNK, …) on either
 * side of `data`, WAVE_FORMAT_EXTENSIBLE, odd-sized chunks with or without their pad byte, recordings
 * cut off mid-write, and the 0xFFFFFFFF sizes streaming writers leave behind (plus RF64/BW64). It
 * reports the format as found; deciding whether that format is acceptable is `requireTransportWav`'s
 * job, so a validator can name every problem at once. The writer produces canonical PCM16 only.
 */
import { HOST_IS_LITTLE_ENDIAN, pcm16ToBytes } from "./pcm";

export type WavSampleFormat = "pcm" | "float" | "mulaw" | "alaw";

export interface WavAudio {
  sampleRate: number;
  channels: number;
  /** Container bits per sample (a 24-bit sample in a 32-bit slot reports 32). */
  bitsPerSample: number;
  format: WavSampleFormat;
  /** Raw interleaved sample bytes, little-endian as stored; whole frames only. */
  data: Uint8Array;
  frames: number;
  /** The file ended before the size its data chunk declared: what was there was kept. */
  truncated: boolean;
  /** Bytes at the end of the data chunk that do not make a whole frame (an odd byte of PCM16, say): not in `data`. */
  partialFrameBytes: number;
}

export type WavErrorCode =
  | "not_wav"
  | "truncated_header"
  | "bad_format_chunk"
  | "missing_data"
  | "unsupported_encoding"
  | "unsupported_format"
  | "empty"
  | "too_large";

/** A WAV file crashlab cannot use, with what it is and how to fix it. */
export class WavError extends Error {
  override readonly name = "WavError";
  constructor(
    readonly code: WavErrorCode,
    message: string,
    readonly source?: string,
  ) {
    super(source ? `${source}: ${message}` : message);
  }
}

/** The conversion that turns any audio file into the transport format (docs/audio-and-metrics.md). */
export const SOX_TO_TRANSPORT = "sox in.wav -r 24000 -c 1 -b 16 -e signed-integer out.wav";
const ffmpegToTransport = (input = "in.wav") => `ffmpeg -i ${input} -ar 24000 -ac 1 -c:a pcm_s16le out.wav`;

const FORMAT_PCM = 0x0001;
const FORMAT_FLOAT = 0x0003;
const FORMAT_ALAW = 0x0006;
const FORMAT_MULAW = 0x0007;
const FORMAT_EXTENSIBLE = 0xfffe;
const SIZE_UNKNOWN = 0xffffffff;
/** KSDATAFORMAT_SUBTYPE_* GUIDs are `<format code>-0000-0010-8000-00AA00389B71`; bytes 2..15 as stored. */
const SUBFORMAT_GUID_TAIL = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];

const KNOWN_CODECS: Record<number, string> = {
  0x0002: "Microsoft ADPCM",
  0x0011: "IMA ADPCM",
  0x0031: "GSM 6.10",
  0x0050: "MPEG audio",
  0x0055: "MP3",
  0x0161: "Windows Media Audio",
  0x2000: "Dolby AC-3",
};

const SAMPLE_FORMATS: Record<number, WavSampleFormat> = {
  [FORMAT_PCM]: "pcm",
  [FORMAT_FLOAT]: "float",
  [FORMAT_ALAW]: "alaw",
  [FORMAT_MULAW]: "mulaw",
};

/** Parse a WAV file. `source` (a path) prefixes every error message. */
export function readWav(bytes: Uint8Array, source?: string): WavAudio {
  const fail = (code: WavErrorCode, message: string): never => {
    throw new WavError(code, message, source);
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const riff = fourCC(bytes, 0);

  if (bytes.byteLength < 12) {
    if (bytes.byteLength > 0 && "RIFF".startsWith(riff)) {
      fail("truncated_header", `WAV header is cut off after ${bytes.byteLength} bytes; the file is incomplete, re-export it`);
    }
    fail("not_wav", notWavMessage(bytes));
  }
  if (riff === "RIFX") {
    fail("not_wav", `big-endian WAV (RIFX) is not supported; convert with: ${SOX_TO_TRANSPORT}`);
  }
  const isRf64 = riff === "RF64" || riff === "BW64";
  if ((riff !== "RIFF" && !isRf64) || fourCC(bytes, 8) !== "WAVE") fail("not_wav", notWavMessage(bytes));

  let fmt: FormatChunk | undefined;
  let rf64DataSize: number | undefined;
  let data: { start: number; end: number; truncated: boolean } | undefined;

  let pos = 12;
  while (pos + 8 <= bytes.byteLength) {
    const id = fourCC(bytes, pos);
    const declared = view.getUint32(pos + 4, true);
    const body = pos + 8;
    const available = bytes.byteLength - body;

    if (id === "data") {
      if (data) break; // only the first data chunk is audio
      let size = declared;
      if (isRf64 && declared === SIZE_UNKNOWN && rf64DataSize !== undefined) size = rf64DataSize;
      if (size === SIZE_UNKNOWN) {
        // A streaming writer never came back to fill in the size: the audio runs to the end of the file.
        data = { start: body, end: bytes.byteLength, truncated: false };
        break;
      }
      if (size > available) {
        data = { start: body, end: bytes.byteLength, truncated: true };
        break;
      }
      data = { start: body, end: body + size, truncated: false };
    } else if (declared > available) {
      // A chunk running past the end: harmless after the audio, fatal before it.
      if (fmt && data) break;
      if (id === "fmt ") fail("truncated_header", `format chunk is cut off; the file is incomplete, re-export it`);
      break;
    } else if (id === "fmt ") {
      fmt ??= parseFormatChunk(view, bytes, body, declared, fail);
    } else if (id === "ds64" && isRf64 && declared >= 16) {
      rf64DataSize = view.getUint32(body + 8, true) + view.getUint32(body + 12, true) * 2 ** 32;
    }
    pos = nextChunk(bytes, body, declared);
  }

  if (!fmt) {
    fail(
      data ? "bad_format_chunk" : "truncated_header",
      data
        ? `WAV has no format chunk before its audio; re-export it, e.g. ${SOX_TO_TRANSPORT}`
        : `WAV header is incomplete (no format chunk in ${bytes.byteLength} bytes); the file is cut off or not audio`,
    );
  }
  if (!data) {
    fail("missing_data", `WAV has a format chunk but no data chunk; the file is incomplete, re-export it`);
  }
  const { blockAlign } = fmt!;
  const partialFrameBytes = (data!.end - data!.start) % blockAlign;
  const usable = data!.end - data!.start - partialFrameBytes;
  return {
    sampleRate: fmt!.sampleRate,
    channels: fmt!.channels,
    bitsPerSample: fmt!.bitsPerSample,
    format: fmt!.format,
    data: bytes.slice(data!.start, data!.start + usable),
    frames: usable / blockAlign,
    truncated: data!.truncated,
    partialFrameBytes,
  };
}

interface FormatChunk {
  format: WavSampleFormat;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  blockAlign: number;
}

function parseFormatChunk(
  view: DataView,
  bytes: Uint8Array,
  at: number,
  size: number,
  fail: (code: WavErrorCode, message: string) => never,
): FormatChunk {
  if (size < 16) fail("bad_format_chunk", `format chunk is ${size} bytes, expected at least 16; re-export the file`);
  let code = view.getUint16(at, true);
  const channels = view.getUint16(at + 2, true);
  const sampleRate = view.getUint32(at + 4, true);
  const bitsPerSample = view.getUint16(at + 14, true);

  if (code === FORMAT_EXTENSIBLE) {
    if (size < 40) fail("bad_format_chunk", `WAVE_FORMAT_EXTENSIBLE format chunk is ${size} bytes, expected 40`);
    const guid = at + 24;
    const standard = SUBFORMAT_GUID_TAIL.every((b, i) => bytes[guid + 2 + i] === b);
    if (!standard) {
      fail("unsupported_encoding", `WAV uses a non-standard sub-format GUID; convert with: ${ffmpegToTransport()}`);
    }
    code = view.getUint16(guid, true);
  }
  const format = SAMPLE_FORMATS[code];
  if (!format) {
    const codec = KNOWN_CODECS[code] ?? `format code 0x${code.toString(16).padStart(4, "0")}`;
    fail("unsupported_encoding", `WAV holds compressed ${codec} audio, not samples; convert with: ${ffmpegToTransport()}`);
  }
  if (channels === 0) fail("bad_format_chunk", `WAV declares 0 channels; the header is corrupt, re-export the file`);
  if (sampleRate === 0) fail("bad_format_chunk", `WAV declares a 0 Hz sample rate; the header is corrupt, re-export the file`);
  const validBits =
    (format === "pcm" && [8, 16, 24, 32].includes(bitsPerSample)) ||
    (format === "float" && (bitsPerSample === 32 || bitsPerSample === 64)) ||
    ((format === "mulaw" || format === "alaw") && bitsPerSample === 8);
  if (!validBits) {
    fail("unsupported_encoding", `WAV declares ${bitsPerSample}-bit ${format} samples, which is not a sample layout crashlab reads; convert with: ${SOX_TO_TRANSPORT}`);
  }
  // Computed rather than read: some writers store a wrong nBlockAlign, while this is what the data means.
  const blockAlign = channels * (bitsPerSample / 8);
  return { format: format!, channels, sampleRate, bitsPerSample, blockAlign };
}

/**
 * Offset of the chunk after one at `body` with `size` bytes. RIFF pads odd chunks to even length, but
 * some writers forget the pad byte: take whichever position starts something that looks like a chunk id.
 */
function nextChunk(bytes: Uint8Array, body: number, size: number): number {
  const unpadded = body + size;
  if (size % 2 === 0) return unpadded;
  const padded = unpadded + 1;
  if (!looksLikeChunkId(bytes, padded) && looksLikeChunkId(bytes, unpadded)) return unpadded;
  return padded;
}

function looksLikeChunkId(bytes: Uint8Array, at: number): boolean {
  if (at + 8 > bytes.byteLength) return false;
  for (let i = at; i < at + 4; i++) if (bytes[i]! < 0x20 || bytes[i]! > 0x7e) return false;
  return true;
}

function fourCC(bytes: Uint8Array, at: number): string {
  let s = "";
  for (let i = at; i < Math.min(at + 4, bytes.byteLength); i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

function notWavMessage(bytes: Uint8Array): string {
  if (bytes.byteLength === 0) return "file is empty, not a WAV file";
  const magic = fourCC(bytes, 0);
  const kind =
    magic === "fLaC" ? "FLAC"
    : magic === "OggS" ? "Ogg"
    : magic === "FORM" ? "AIFF"
    : magic.startsWith("ID3") || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0) ? "MP3"
    : fourCC(bytes, 4) === "ftyp" ? "MP4/M4A"
    : undefined;
  if (!kind) return `file is not a RIFF/WAVE file; if it is audio, convert with: ${ffmpegToTransport()}`;
  return `file is ${kind} audio, not WAV; convert with: ${ffmpegToTransport(`in.${kind.split("/")[0]!.toLowerCase()}`)}`;
}

/** "stereo 44.1 kHz 32-bit float WAV": how a file's format reads to a person. */
export function describeWav(audio: Pick<WavAudio, "sampleRate" | "channels" | "bitsPerSample" | "format">): string {
  const layout = audio.channels === 1 ? "mono" : audio.channels === 2 ? "stereo" : `${audio.channels}-channel`;
  const rate = `${Number((audio.sampleRate / 1000).toFixed(3))} kHz`;
  const encoding =
    audio.format === "pcm"
      ? `${audio.bitsPerSample}-bit ${audio.bitsPerSample === 8 ? "unsigned" : "signed"} PCM`
      : audio.format === "float"
        ? `${audio.bitsPerSample}-bit float`
        : audio.format === "mulaw"
          ? "μ-law"
          : "A-law";
  return `${layout} ${rate} ${encoding} WAV`;
}

/**
 * Caller recordings must be non-empty mono signed 16-bit PCM at 24,000 Hz. Throws a WavError that
 * says what the file is and the sox command that converts it.
 */
export function requireTransportWav(audio: WavAudio, source?: string): void {
  const ok = audio.format === "pcm" && audio.bitsPerSample === 16 && audio.channels === 1 && audio.sampleRate === 24_000;
  if (!ok) {
    throw new WavError(
      "unsupported_format",
      `${describeWav(audio)}; crashlab needs mono 24 kHz 16-bit signed PCM; convert with: ${SOX_TO_TRANSPORT}`,
      source,
    );
  }
  if (audio.frames === 0) {
    throw new WavError("empty", "WAV contains no audio (the data chunk is empty); record or export the caller again", source);
  }
}

/** The fields writeWav needs: PCM16 LE interleaved samples. */
export interface Pcm16Wav {
  sampleRate: number;
  channels: number;
  data: Uint8Array;
  bitsPerSample?: number;
  format?: WavSampleFormat;
}

/** Canonical 44-byte-header PCM16 WAV (mono or stereo), as written for the artifacts. */
export function writeWav(audio: Pcm16Wav): Uint8Array {
  if ((audio.format ?? "pcm") !== "pcm" || (audio.bitsPerSample ?? 16) !== 16) {
    throw new WavError("unsupported_format", `writeWav writes 16-bit PCM only, got ${describeWav({ bitsPerSample: 16, format: "pcm", ...audio })}`);
  }
  if (audio.channels !== 1 && audio.channels !== 2) {
    throw new WavError("unsupported_format", `writeWav writes mono or stereo, got ${audio.channels} channels`);
  }
  if (!Number.isInteger(audio.sampleRate) || audio.sampleRate <= 0) {
    throw new WavError("unsupported_format", `writeWav needs a positive integer sample rate, got ${audio.sampleRate}`);
  }
  const blockAlign = audio.channels * 2;
  if (audio.data.byteLength % blockAlign !== 0) {
    throw new RangeError(`PCM16 ${audio.channels}-channel data must be a multiple of ${blockAlign} bytes, got ${audio.data.byteLength}`);
  }
  if (audio.data.byteLength > SIZE_UNKNOWN - 36) {
    throw new WavError("too_large", `audio of ${audio.data.byteLength} bytes does not fit a WAV file (4 GiB limit)`);
  }
  const out = new Uint8Array(44 + audio.data.byteLength);
  const view = new DataView(out.buffer);
  writeFourCC(out, 0, "RIFF");
  view.setUint32(4, 36 + audio.data.byteLength, true);
  writeFourCC(out, 8, "WAVE");
  writeFourCC(out, 12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, FORMAT_PCM, true);
  view.setUint16(22, audio.channels, true);
  view.setUint32(24, audio.sampleRate, true);
  view.setUint32(28, audio.sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, 16, true);
  writeFourCC(out, 36, "data");
  view.setUint32(40, audio.data.byteLength, true);
  out.set(audio.data, 44);
  return out;
}

/** A WAV file from int16 samples (interleaved when stereo). */
export function pcm16Wav(samples: Int16Array, sampleRate: number, channels = 1): Uint8Array {
  // writeWav copies the data into the file it builds, so a view of the samples' bytes serves where they are already LE.
  const data = HOST_IS_LITTLE_ENDIAN ? new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength) : pcm16ToBytes(samples);
  return writeWav({ sampleRate, channels, data });
}

function writeFourCC(out: Uint8Array, at: number, id: string): void {
  for (let i = 0; i < 4; i++) out[at + i] = id.charCodeAt(i);
}
