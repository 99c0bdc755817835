import { describe, expect, it } from "vitest";
import {
  describeWav,
  pcm16FromBytes,
  pcm16Wav,
  readWav,
  requireTransportWav,
  WavError,
  writeWav,
  type WavAudio,
} from "../src/core/audio";

// ---- hand-built WAV layouts -------------------------------------------------------------------

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const u16 = (v: number) => Uint8Array.of(v & 0xff, (v >> 8) & 0xff);
const u32 = (v: number) => Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
};

/** A chunk: id, size (declared, default the body length), body, then a pad byte for odd bodies unless told not to. */
function chunk(id: string, body: Uint8Array, opts: { declared?: number; pad?: boolean } = {}): Uint8Array {
  const pad = (opts.pad ?? true) && body.length % 2 === 1 ? Uint8Array.of(0) : new Uint8Array(0);
  return concat(ascii(id), u32(opts.declared ?? body.length), body, pad);
}

function riff(chunks: Uint8Array[], opts: { id?: string; size?: number } = {}): Uint8Array {
  const body = concat(ascii("WAVE"), ...chunks);
  return concat(ascii(opts.id ?? "RIFF"), u32(opts.size ?? body.length), body);
}

function fmtBody({ code = 1, channels = 1, rate = 24_000, bits = 16 } = {}): Uint8Array {
  const blockAlign = channels * (bits / 8);
  return concat(u16(code), u16(channels), u32(rate), u32(rate * blockAlign), u16(blockAlign), u16(bits));
}

const SUBTYPE_TAIL = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];
function extensibleFmtBody({ subformat = 1, channels = 1, rate = 24_000, bits = 16, guidTail = SUBTYPE_TAIL } = {}) {
  const blockAlign = channels * (bits / 8);
  return concat(
    u16(0xfffe), u16(channels), u32(rate), u32(rate * blockAlign), u16(blockAlign), u16(bits),
    u16(22), u16(bits), u32(channels === 1 ? 0x4 : 0x3), u16(subformat), Uint8Array.from(guidTail),
  );
}

/** 4 samples of PCM16: 1, -2, 300, -32768. */
const SAMPLE_BYTES = Uint8Array.of(0x01, 0x00, 0xfe, 0xff, 0x2c, 0x01, 0x00, 0x80);
const SAMPLES = [1, -2, 300, -32768];
const LIST_INFO = chunk("LIST", concat(ascii("INFO"), chunk("ISFT", ascii("Lavf58.76.100\0"))));

function expectTransport(audio: WavAudio, frames = 4) {
  expect(audio).toMatchObject({ sampleRate: 24_000, channels: 1, bitsPerSample: 16, format: "pcm", frames, truncated: false });
}

function wavError(fn: () => unknown): WavError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WavError);
    return error as WavError;
  }
  throw new Error("expected a WavError");
}

// ---- tests -------------------------------------------------------------------------------------

describe("writeWav / pcm16Wav", () => {
  it("writes a canonical 44-byte PCM16 header", () => {
    const file = pcm16Wav(Int16Array.from(SAMPLES), 24_000);
    expect(file.length).toBe(44 + 8);
    const view = new DataView(file.buffer);
    expect(String.fromCharCode(...file.subarray(0, 4))).toBe("RIFF");
    expect(view.getUint32(4, true)).toBe(36 + 8);
    expect(String.fromCharCode(...file.subarray(8, 16))).toBe("WAVEfmt ");
    expect(view.getUint32(16, true)).toBe(16);
    expect(view.getUint16(20, true)).toBe(1); // PCM
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(24_000);
    expect(view.getUint32(28, true)).toBe(48_000);
    expect(view.getUint16(32, true)).toBe(2);
    expect(view.getUint16(34, true)).toBe(16);
    expect(String.fromCharCode(...file.subarray(36, 40))).toBe("data");
    expect(view.getUint32(40, true)).toBe(8);
    expect([...file.subarray(44)]).toEqual([...SAMPLE_BYTES]);
  });

  it("round-trips mono and stereo audio", () => {
    const mono = Int16Array.from({ length: 1000 }, (_, i) => Math.round(Math.sin(i / 7) * 20_000));
    const readMono = readWav(pcm16Wav(mono, 24_000));
    expectTransport(readMono, 1000);
    expect(pcm16FromBytes(readMono.data)).toEqual(mono);

    const stereo = Int16Array.from([1, -1, 2, -2, 3, -3]);
    const readStereo = readWav(pcm16Wav(stereo, 24_000, 2));
    expect(readStereo).toMatchObject({ channels: 2, frames: 3, sampleRate: 24_000 });
    expect(pcm16FromBytes(readStereo.data)).toEqual(stereo);
    expect(writeWav(readStereo)).toEqual(pcm16Wav(stereo, 24_000, 2));
  });

  it("refuses what it cannot write", () => {
    expect(() => writeWav({ sampleRate: 24_000, channels: 3, data: new Uint8Array(6) })).toThrow(/mono or stereo, got 3/);
    expect(() => writeWav({ sampleRate: 24_000, channels: 2, data: new Uint8Array(6) })).toThrow(/multiple of 4 bytes/);
    expect(() => writeWav({ sampleRate: 24_000, channels: 1, data: new Uint8Array(4), format: "float", bitsPerSample: 32 })).toThrow(
      /16-bit PCM only, got mono 24 kHz 32-bit float WAV/,
    );
  });
});

describe("readWav on real-world layouts", () => {
  const fmt = chunk("fmt ", fmtBody());
  const data = chunk("data", SAMPLE_BYTES);

  it("skips LIST before data and LIST after data", () => {
    for (const file of [riff([fmt, LIST_INFO, data]), riff([fmt, data, LIST_INFO]), riff([LIST_INFO, fmt, data, LIST_INFO])]) {
      const audio = readWav(file);
      expectTransport(audio);
      expect([...pcm16FromBytes(audio.data)]).toEqual(SAMPLES);
    }
  });

  it("skips fact, bext and JUNK chunks", () => {
    const junk = chunk("JUNK", new Uint8Array(28));
    const bext = chunk("bext", new Uint8Array(602));
    const fact = chunk("fact", u32(4));
    const audio = readWav(riff([junk, fmt, bext, fact, data]));
    expectTransport(audio);
    expect([...audio.data]).toEqual([...SAMPLE_BYTES]);
  });

  it("reads a format chunk that comes after the data", () => {
    expectTransport(readWav(riff([data, fmt])));
  });

  it("reads WAVE_FORMAT_EXTENSIBLE PCM16 and float from the sub-format GUID", () => {
    expectTransport(readWav(riff([chunk("fmt ", extensibleFmtBody()), data])));
    const float = readWav(riff([chunk("fmt ", extensibleFmtBody({ subformat: 3, bits: 32, rate: 48_000 })), data]));
    expect(float).toMatchObject({ format: "float", bitsPerSample: 32, sampleRate: 48_000, frames: 2 });
  });

  it("rejects an extensible file with a non-standard sub-format GUID", () => {
    const odd = [...SUBTYPE_TAIL];
    odd[13] = 0x72;
    const error = wavError(() => readWav(riff([chunk("fmt ", extensibleFmtBody({ guidTail: odd })), data])));
    expect(error.code).toBe("unsupported_encoding");
    expect(error.message).toMatch(/non-standard sub-format GUID; convert with: ffmpeg/);
  });

  it("honours the pad byte after an odd-sized chunk, and copes when a writer forgot it", () => {
    const oddList = ascii("LIST\x05\x00\x00\x00INFOx");
    expect(oddList.length).toBe(13);
    const padded = riff([fmt, concat(oddList, Uint8Array.of(0)), data]);
    expectTransport(readWav(padded));
    const unpadded = riff([fmt, oddList, data]);
    expectTransport(readWav(unpadded));
  });

  it("reads an odd-sized data chunk followed by its pad byte and another chunk", () => {
    const eightBit = readWav(riff([chunk("fmt ", fmtBody({ bits: 8, rate: 8000 })), chunk("data", Uint8Array.of(128, 130, 126)), LIST_INFO]));
    expect(eightBit).toMatchObject({ bitsPerSample: 8, frames: 3, truncated: false });
    expect([...eightBit.data]).toEqual([128, 130, 126]);
  });

  it("keeps what is there when the data chunk claims more than the file holds", () => {
    const file = riff([fmt, chunk("data", SAMPLE_BYTES, { declared: 96_000 })]);
    const audio = readWav(file);
    expect(audio).toMatchObject({ frames: 4, truncated: true });
    expect([...audio.data]).toEqual([...SAMPLE_BYTES]);

    // Cut mid-sample: the half sample is dropped.
    const cut = readWav(file.subarray(0, file.length - 1));
    expect(cut).toMatchObject({ frames: 3, truncated: true });
    expect([...pcm16FromBytes(cut.data)]).toEqual(SAMPLES.slice(0, 3));
  });

  it("reads to the end of the file when a streaming writer left 0xFFFFFFFF sizes", () => {
    const file = riff([fmt, chunk("data", SAMPLE_BYTES, { declared: 0xffffffff })], { size: 0xffffffff });
    const audio = readWav(file);
    expectTransport(audio);
    expect([...pcm16FromBytes(audio.data)]).toEqual(SAMPLES);
  });

  it("reads RF64 with the data size from the ds64 chunk", () => {
    const ds64 = chunk("ds64", concat(u32(0), u32(0), u32(8), u32(0), u32(4), u32(0), u32(0)));
    const file = riff([ds64, fmt, chunk("data", SAMPLE_BYTES, { declared: 0xffffffff }), LIST_INFO], { id: "RF64", size: 0xffffffff });
    const audio = readWav(file);
    expectTransport(audio);
    expect([...audio.data]).toEqual([...SAMPLE_BYTES]);
  });

  it("returns a copy that does not alias the file bytes", () => {
    const file = riff([fmt, data]);
    const audio = readWav(file);
    file.fill(0);
    expect([...audio.data]).toEqual([...SAMPLE_BYTES]);
  });

  it("works on a view at an odd offset inside a larger buffer", () => {
    const file = riff([fmt, data]);
    const host = new Uint8Array(file.length + 3);
    host.set(file, 3);
    expectTransport(readWav(host.subarray(3)));
  });
});

describe("formats reported for the WALK validator, and their rejection messages", () => {
  const SOX = "convert with: sox in.wav -r 24000 -c 1 -b 16 -e signed-integer out.wav";

  it("reports stereo 44.1 kHz float and rejects it with a conversion command", () => {
    const audio = readWav(riff([chunk("fmt ", fmtBody({ code: 3, channels: 2, rate: 44_100, bits: 32 })), chunk("data", new Uint8Array(16))]));
    expect(audio).toMatchObject({ channels: 2, sampleRate: 44_100, bitsPerSample: 32, format: "float", frames: 2 });
    const error = wavError(() => requireTransportWav(audio, "audio/caller.wav"));
    expect(error.code).toBe("unsupported_format");
    expect(error.message).toBe(
      `audio/caller.wav: stereo 44.1 kHz 32-bit float WAV; crashlab needs mono 24 kHz 16-bit signed PCM; ${SOX}`,
    );
  });

  it("reports and rejects stereo PCM16 at 24 kHz", () => {
    const audio = readWav(pcm16Wav(new Int16Array(8), 24_000, 2));
    expect(audio.channels).toBe(2);
    expect(wavError(() => requireTransportWav(audio)).message).toMatch(/^stereo 24 kHz 16-bit signed PCM WAV; .*sox/);
  });

  it("reports and rejects 8-bit PCM", () => {
    const audio = readWav(riff([chunk("fmt ", fmtBody({ bits: 8 })), chunk("data", new Uint8Array(10))]));
    expect(audio).toMatchObject({ bitsPerSample: 8, format: "pcm", frames: 10 });
    expect(wavError(() => requireTransportWav(audio)).message).toMatch(/^mono 24 kHz 8-bit unsigned PCM WAV; /);
  });

  it("reports 44.1 kHz correctly and rejects it", () => {
    const audio = readWav(pcm16Wav(new Int16Array(441), 44_100));
    expect(audio).toMatchObject({ sampleRate: 44_100, channels: 1, bitsPerSample: 16, format: "pcm", frames: 441 });
    expect(wavError(() => requireTransportWav(audio)).message).toMatch(/^mono 44\.1 kHz 16-bit signed PCM WAV; /);
  });

  it("reports a μ-law container and rejects it", () => {
    const audio = readWav(riff([chunk("fmt ", fmtBody({ code: 7, rate: 8000, bits: 8 })), chunk("fact", u32(4)), chunk("data", Uint8Array.of(0xff, 0x7f, 0x00, 0x80))]));
    expect(audio).toMatchObject({ format: "mulaw", sampleRate: 8000, bitsPerSample: 8, frames: 4 });
    expect(wavError(() => requireTransportWav(audio)).message).toMatch(/^mono 8 kHz μ-law WAV; .*sox/);
    const alaw = readWav(riff([chunk("fmt ", fmtBody({ code: 6, rate: 8000, bits: 8 })), chunk("data", Uint8Array.of(0xd5))]));
    expect(describeWav(alaw)).toBe("mono 8 kHz A-law WAV");
  });

  it("rejects empty audio even in the right format", () => {
    const audio = readWav(pcm16Wav(new Int16Array(0), 24_000));
    expect(audio.frames).toBe(0);
    const error = wavError(() => requireTransportWav(audio, "rec.wav"));
    expect(error.code).toBe("empty");
    expect(error.message).toMatch(/^rec\.wav: WAV contains no audio/);
  });

  it("accepts mono 24 kHz PCM16 with audio", () => {
    expect(() => requireTransportWav(readWav(pcm16Wav(new Int16Array(480), 24_000)))).not.toThrow();
  });

  it("describes unusual rates and channel counts", () => {
    expect(describeWav({ sampleRate: 22_050, channels: 6, bitsPerSample: 24, format: "pcm" })).toBe("6-channel 22.05 kHz 24-bit signed PCM WAV");
  });
});

describe("readWav rejections", () => {
  it("rejects a compressed codec by name", () => {
    const error = wavError(() => readWav(riff([chunk("fmt ", fmtBody({ code: 2, bits: 4 })), chunk("data", new Uint8Array(8))]), "a.wav"));
    expect(error.code).toBe("unsupported_encoding");
    expect(error.message).toBe("a.wav: WAV holds compressed Microsoft ADPCM audio, not samples; convert with: ffmpeg -i in.wav -ar 24000 -ac 1 -c:a pcm_s16le out.wav");
    expect(wavError(() => readWav(riff([chunk("fmt ", fmtBody({ code: 0x1234 })), chunk("data", new Uint8Array(8))]))).message).toMatch(
      /compressed format code 0x1234 audio/,
    );
  });

  it("rejects a truncated header", () => {
    const whole = pcm16Wav(new Int16Array(4), 24_000);
    for (const length of [4, 11, 12, 20, 30]) {
      const error = wavError(() => readWav(whole.subarray(0, length), "cut.wav"));
      expect(error.code).toBe("truncated_header");
      expect(error.message).toMatch(/^cut\.wav: WAV header is (cut off|incomplete)|format chunk is cut off/);
    }
  });

  it("rejects a file with a format but no data chunk", () => {
    const error = wavError(() => readWav(riff([chunk("fmt ", fmtBody()), LIST_INFO])));
    expect(error.code).toBe("missing_data");
  });

  it("rejects a format chunk shorter than 16 bytes", () => {
    expect(wavError(() => readWav(riff([chunk("fmt ", new Uint8Array(14)), chunk("data", new Uint8Array(2))]))).code).toBe("bad_format_chunk");
  });

  it("rejects what is not RIFF and names common audio formats", () => {
    const text = wavError(() => readWav(ascii("hello, this is not audio at all"), "notes.wav"));
    expect(text.code).toBe("not_wav");
    expect(text.message).toMatch(/^notes\.wav: file is not a RIFF\/WAVE file/);
    expect(wavError(() => readWav(ascii("fLaC\0\0\0\x22" + "x".repeat(40)))).message).toMatch(/^file is FLAC audio, not WAV; convert with: ffmpeg -i in\.flac/);
    expect(wavError(() => readWav(ascii("ID3\x04" + "x".repeat(40)))).message).toMatch(/MP3 audio/);
    expect(wavError(() => readWav(riff([], { id: "RIFX" }))).message).toMatch(/big-endian/);
    expect(wavError(() => readWav(new Uint8Array(0))).message).toMatch(/file is empty/);
    const avi = concat(ascii("RIFF"), u32(4), ascii("AVI "));
    expect(wavError(() => readWav(avi)).code).toBe("not_wav");
  });
});
