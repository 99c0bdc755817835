/**
 * PCM16 little-endian sample helpers. The transport format is raw PCM16 LE mono (docs/audio-and-metrics.md); these helpers
 * convert between the byte form that travels (base64 over the wire, WAV on disk) and the Int16Array
 * form that signal code works on. Every conversion returns a fresh array, never a view, so a caller
 * cannot corrupt audio it has already handed over.
 */

export const HOST_IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Decode PCM16 LE bytes into samples. Works at any byteOffset and on big-endian hosts. */
export function pcm16FromBytes(bytes: Uint8Array): Int16Array {
  if (bytes.byteLength % 2 !== 0) {
    throw new RangeError(`PCM16 data must have an even byte length, got ${bytes.byteLength} bytes`);
  }
  const samples = new Int16Array(bytes.byteLength / 2);
  if (HOST_IS_LITTLE_ENDIAN) {
    // Copying bytes into the fresh buffer sidesteps Int16Array's 2-byte alignment requirement.
    new Uint8Array(samples.buffer).set(bytes);
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
  }
  return samples;
}

/** Write PCM16 LE bytes into `target` from sample `at` on, without an intermediate copy; returns the samples written. */
export function placePcm16(target: Int16Array, bytes: Uint8Array, at: number): number {
  if (bytes.byteLength % 2 !== 0) throw new RangeError(`PCM16 data must have an even byte length, got ${bytes.byteLength} bytes`);
  const count = bytes.byteLength / 2;
  if (at < 0 || at + count > target.length) throw new RangeError(`${count} samples do not fit at ${at} in a track of ${target.length}`);
  if (HOST_IS_LITTLE_ENDIAN) new Uint8Array(target.buffer, target.byteOffset + at * 2, bytes.byteLength).set(bytes);
  else target.set(pcm16FromBytes(bytes), at);
  return count;
}

/** Encode samples as PCM16 LE bytes. */
export function pcm16ToBytes(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  if (HOST_IS_LITTLE_ENDIAN) {
    bytes.set(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength));
  } else {
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i]!, true);
  }
  return bytes;
}

/** Round and clip a number to the int16 range; NaN becomes 0. */
export function clipInt16(value: number): number {
  if (Number.isNaN(value)) return 0;
  const rounded = Math.round(value);
  return rounded > 32767 ? 32767 : rounded < -32768 ? -32768 : rounded;
}

/** Float samples in [-1, 1] to int16, clipping anything outside. Asymmetric scale so ±1 maps to the int16 ends. */
export function floatToPcm16(samples: ArrayLike<number>): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    out[i] = clipInt16(s < 0 ? s * 32768 : s * 32767);
  }
  return out;
}

/** int16 samples to floats in [-1, 1). */
export function pcm16ToFloat(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i]! / 32768;
  return out;
}

/**
 * Mix `overlay × gain` into `base`, clipping to int16. The result is as long as the longer input;
 * the shorter one contributes silence past its end.
 */
export function mixPcm16(base: Int16Array, overlay: Int16Array, gain = 1): Int16Array {
  const out = new Int16Array(Math.max(base.length, overlay.length));
  for (let i = 0; i < out.length; i++) {
    const a = i < base.length ? base[i]! : 0;
    const b = i < overlay.length ? overlay[i]! : 0;
    out[i] = clipInt16(a + b * gain);
  }
  return out;
}

/** Two mono tracks to one interleaved stereo track (left, right, left, …); the shorter is padded with zeros. */
export function interleaveStereo(left: Int16Array, right: Int16Array): Int16Array {
  const frames = Math.max(left.length, right.length);
  const out = new Int16Array(frames * 2);
  for (let i = 0; i < frames; i++) {
    out[2 * i] = i < left.length ? left[i]! : 0;
    out[2 * i + 1] = i < right.length ? right[i]! : 0;
  }
  return out;
}

/** Samples padded with zeros up to `length`; a track already that long is returned as a copy, untruncated. */
export function zeroFillTo(samples: Int16Array, length: number): Int16Array {
  const out = new Int16Array(Math.max(samples.length, Math.max(0, Math.floor(length))));
  out.set(samples);
  return out;
}

/**
 * Playback duration in milliseconds of `byteLength` bytes of PCM16. Multiplying before dividing keeps
 * whole 20 ms chunks exact (`(bytes / 2 / 24000) * 1000` gave `4019.9999999999995` for 4020 ms).
 */
export function pcm16DurationMs(byteLength: number, sampleRate = 24_000, channels = 1): number {
  return ((byteLength / (2 * channels)) * 1000) / sampleRate;
}

/** Bytes of PCM16 that last `ms` milliseconds (whole samples): 20 ms at 24 kHz mono is 960. */
export function pcm16BytesForMs(ms: number, sampleRate = 24_000, channels = 1): number {
  return Math.round((ms * sampleRate) / 1000) * 2 * channels;
}

const BASE64_ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;

/** Base64 of a PCM chunk, as `session.input_audio.append` carries it. */
export function encodePcmBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/**
 * Bytes of a base64 PCM chunk. Strict: Node's decoder silently skips invalid characters, which would
 * turn a corrupted audio delta into shifted samples instead of an error.
 */
export function decodePcmBase64(base64: string): Uint8Array {
  const out = new Uint8Array(base64DecodedLength(base64));
  if (decodeBase64Into(base64, out, 0) < 0) throw new RangeError(`audio payload is not valid base64 (length ${base64.length})`);
  return out;
}

/** Whether `base64` is strict base64 (the alphabet, `=` padding at the end only, a multiple of 4 long). */
export function isStrictBase64(base64: string): boolean {
  return base64.length % 4 === 0 && BASE64_ALPHABET.test(base64);
}

/** Bytes that `base64` decodes to, if it is valid: three per four characters, less its padding. */
export function base64DecodedLength(base64: string): number {
  const n = base64.length;
  const padding = n === 0 ? 0 : base64.charCodeAt(n - 1) !== EQUALS ? 0 : base64.charCodeAt(n - 2) === EQUALS ? 2 : 1;
  return Math.max(0, Math.floor(n / 4) * 3 - padding);
}

const EQUALS = 61;

/**
 * Decode strict base64 into `into` at `offset` and return the bytes written, or -1 (with `into` partly
 * overwritten) when `base64` is not strict base64 — the same strings `isStrictBase64` refuses. One pass
 * over the text instead of a validating regex plus a decode: Node's decoder skips every character outside
 * its alphabets, so a string that decodes to fewer bytes than its length promises has one; the only
 * characters it takes that strict base64 refuses are the URL-safe `-` and `_`, looked for separately.
 */
export function decodeBase64Into(base64: string, into: Uint8Array, offset: number): number {
  if (base64.length % 4 !== 0) return -1;
  const expected = base64DecodedLength(base64);
  if (expected === 0) return base64.length === 0 ? 0 : -1;
  if (offset < 0 || into.byteLength - offset < expected) throw new RangeError(`decoding ${expected} bytes at ${offset} needs a larger buffer than ${into.byteLength} bytes`);
  const target = Buffer.from(into.buffer, into.byteOffset + offset, expected);
  if (target.write(base64, 0, expected, "base64") !== expected) return -1;
  if (base64.indexOf("-") >= 0 || base64.indexOf("_") >= 0) return -1;
  return expected;
}

/** Join PCM chunks (bytes or samples) into one contiguous buffer of the same kind. */
export function concatPcm(chunks: readonly Int16Array[]): Int16Array;
export function concatPcm(chunks: readonly Uint8Array[]): Uint8Array;
export function concatPcm(chunks: readonly (Uint8Array | Int16Array)[]): Uint8Array | Int16Array {
  // Always a plain typed array: a Buffer chunk must not make us call the deprecated `new Buffer(n)`.
  const length = chunks.reduce((n, c) => n + c.length, 0);
  const out = chunks[0] instanceof Int16Array ? new Int16Array(length) : new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
