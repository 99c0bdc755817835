import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pcm16ToBytes } from "../src/core/audio/pcm";
import { pcm16Wav } from "../src/core/audio/wav";
import { parseDataset } from "../src/core/dataset/load";
import { loadRecording, RecordingError, resolveRecording, validateRecordings } from "../src/core/walk/recordings";
import { tones } from "./walk-signal";

/** A WAV with any header fields, for files crashlab must refuse. */
function wavFile(options: { code?: number; channels?: number; rate?: number; bits?: number; data: Uint8Array; declaredData?: number }): Uint8Array {
  const { code = 1, channels = 1, rate = 24_000, bits = 16, data } = options;
  const out = new Uint8Array(44 + data.byteLength);
  const view = new DataView(out.buffer);
  const put = (at: number, text: string) => [...text].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  put(0, "RIFF");
  view.setUint32(4, 36 + data.byteLength, true);
  put(8, "WAVE");
  put(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, code, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, (rate * channels * bits) / 8, true);
  view.setUint16(32, (channels * bits) / 8, true);
  view.setUint16(34, bits, true);
  put(36, "data");
  view.setUint32(40, options.declaredData ?? data.byteLength, true);
  out.set(data, 44);
  return out;
}

const speech = tones([200, 900], 4000, 0.5);
const good = pcm16Wav(speech, 24_000);

function fixture() {
  const dir = mkdtempSync(join(tmpdir(), "walk-rec-"));
  mkdirSync(join(dir, "audio"));
  const file = join(dir, "walk.json");
  const write = (name: string, bytes: Uint8Array) => writeFileSync(join(dir, "audio", name), bytes);
  return { dir, file, write };
}

function scenario(id: string, recordings: Array<{ id: string; path: string; condition?: string; metadata?: Record<string, unknown> }>) {
  return {
    id,
    title: id,
    interaction: "single_turn",
    input: { text: "Book a table for two.", recordings },
    application: { initial_state: {} },
    expected: { answer: "Books it." },
  };
}

/** The RecordingError a file produces. */
function refusal(bytes: Uint8Array | "missing" | "directory"): RecordingError {
  const { dir, file, write } = fixture();
  if (bytes === "directory") mkdirSync(join(dir, "audio", "caller.wav"));
  else if (bytes !== "missing") write("caller.wav", bytes);
  try {
    loadRecording(file, { id: "harbor_003" }, { id: "caller_recording", path: "audio/caller.wav" });
  } catch (error) {
    expect(error).toBeInstanceOf(RecordingError);
    const e = error as RecordingError;
    // Every refusal names the dataset, scenario, recording and path, and states the requirement.
    expect(e.message).toContain(`Recording "caller_recording" of scenario "harbor_003" in dataset ${file} (audio/caller.wav → ${join(dir, "audio", "caller.wav")}) cannot be used: `);
    expect(e.message).toContain("WALK replays recordings exactly and needs a non-empty mono 16-bit signed PCM WAV at 24,000 Hz; ");
    expect(e.message).not.toContain("\n");
    expect(e.path).toBe(join(dir, "audio", "caller.wav"));
    return e;
  }
  throw new Error("expected the recording to be refused");
}

describe("loading a WALK recording", () => {
  it("resolves paths against the dataset file's folder; absolute paths stay", () => {
    expect(resolveRecording("/data/walk/walk.json", { id: "a" }, { path: "audio/a.wav" })).toBe("/data/walk/audio/a.wav");
    expect(resolveRecording("/data/walk/walk.json", { id: "a" }, { path: "../shared/a.wav" })).toBe("/data/shared/a.wav");
    expect(resolveRecording("/data/walk/walk.json", { id: "a" }, { path: "/recordings/a.wav" })).toBe("/recordings/a.wav");
  });

  it("returns the WAV's PCM bytes exactly, with duration, hashes, condition and metadata", () => {
    const { dir, file, write } = fixture();
    write("caller.wav", good);
    const loaded = loadRecording(file, { id: "r1" }, { id: "mic", path: "audio/caller.wav", condition: "noisy", metadata: { accent: "scottish" } });
    expect(Buffer.from(loaded.pcm).equals(Buffer.from(pcm16ToBytes(speech)))).toBe(true);
    expect(loaded).toMatchObject({
      scenario_id: "r1",
      recording_id: "mic",
      path: join(dir, "audio", "caller.wav"),
      sample_rate: 24_000,
      samples: 12_000,
      duration_ms: 500,
      condition: "noisy",
      metadata: { accent: "scottish" },
      sha256: createHash("sha256").update(pcm16ToBytes(speech)).digest("hex"),
      file_sha256: createHash("sha256").update(good).digest("hex"),
    });
  });

  it("refuses a missing file", () => {
    const e = refusal("missing");
    expect(e.code).toBe("missing_file");
    expect(e.message).toMatch(/cannot be used: the file does not exist\. .*; check input\.recordings\[\]\.path \(a relative path is resolved against the dataset's folder, .*\)\.$/);
  });

  it("refuses a directory", () => {
    expect(refusal("directory").message).toMatch(/the path is a directory, not a file\. .*point input\.recordings\[\]\.path at the WAV file itself\.$/);
  });

  it("refuses an empty file", () => {
    const e = refusal(new Uint8Array(0));
    expect(e.code).toBe("empty_file");
    expect(e.message).toMatch(/the file is empty \(0 bytes\)\. .*record or export the caller's request again\.$/);
  });

  it("refuses stereo, with the sox command that converts it", () => {
    const e = refusal(wavFile({ channels: 2, data: new Uint8Array(4800) }));
    expect(e.code).toBe("unsupported_format");
    const path = e.path;
    expect(e.message).toContain("cannot be used: the file is a stereo 24 kHz 16-bit signed PCM WAV.");
    expect(e.message).toContain(`convert it with: sox ${path} -r 24000 -c 1 -b 16 -e signed-integer ${path.replace(/\.wav$/, ".24k.wav")}, then point the recording's path at the converted file.`);
  });

  it("refuses 8-bit PCM", () => {
    const e = refusal(wavFile({ bits: 8, data: new Uint8Array(2400).fill(128) }));
    expect(e.message).toContain("the file is a mono 24 kHz 8-bit unsigned PCM WAV.");
    expect(e.message).toContain("convert it with: sox ");
  });

  it("refuses 44.1 kHz", () => {
    const e = refusal(wavFile({ rate: 44_100, data: new Uint8Array(4410) }));
    expect(e.message).toContain("the file is a mono 44.1 kHz 16-bit signed PCM WAV.");
    expect(e.message).toContain("-r 24000 -c 1 -b 16 -e signed-integer");
  });

  it("refuses a μ-law container", () => {
    const e = refusal(wavFile({ code: 7, bits: 8, rate: 8000, data: new Uint8Array(800).fill(0xff) }));
    expect(e.code).toBe("unsupported_format");
    expect(e.message).toContain("the file is a mono 8 kHz μ-law WAV.");
    expect(e.message).toContain("convert it with: sox ");
  });

  it("refuses a truncated header", () => {
    const e = refusal(good.slice(0, 30));
    expect(e.code).toBe("truncated_header");
    expect(e.message).toMatch(/cannot be used: the WAV header is cut off: format chunk is cut off \(30 bytes in all\)\. .*re-export or re-record it: a file cut off inside its header holds no usable audio\.$/);
    expect(refusal(good.slice(0, 10)).message).toContain("WAV header is cut off after 10 bytes (10 bytes in all)");
  });

  it("refuses a recording with zero samples", () => {
    const e = refusal(wavFile({ data: new Uint8Array(0) }));
    expect(e.code).toBe("no_samples");
    expect(e.message).toContain("the mono 24 kHz 16-bit signed PCM WAV contains no samples (its data chunk is empty)");
  });

  it("refuses a file cut off inside its audio", () => {
    const e = refusal(wavFile({ data: new Uint8Array(4800), declaredData: 48_000 }));
    expect(e.code).toBe("truncated_data");
    expect(e.message).toContain("is cut off: its data chunk declares more audio than the file holds");
  });

  it("refuses other containers, with the ffmpeg command", () => {
    const e = refusal(new Uint8Array(Buffer.from("ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000 mp3 frames follow", "latin1")));
    expect(e.code).toBe("not_wav");
    expect(e.message).toContain("cannot be used: file is MP3 audio, not WAV.");
    expect(e.message).toContain(`convert it with: ffmpeg -i ${e.path} -ar 24000 -ac 1 -c:a pcm_s16le ${e.path.replace(/\.wav$/, ".24k.wav")}`);
  });

  it("quotes paths with spaces in the command it suggests", () => {
    const { dir, file } = fixture();
    writeFileSync(join(dir, "audio", "Maya's call.wav"), wavFile({ channels: 2, data: new Uint8Array(960) }));
    expect(() => loadRecording(file, { id: "a" }, { id: "r", path: "audio/Maya's call.wav" })).toThrow(
      `sox '${join(dir, "audio")}/Maya'\\''s call.wav' -r 24000 -c 1 -b 16 -e signed-integer '${join(dir, "audio")}/Maya'\\''s call.24k.wav'`,
    );
  });
});

describe("validating a dataset's recordings", () => {
  it("returns every problem at once, in dataset order", () => {
    const { dir, file, write } = fixture();
    write("ok.wav", good);
    write("stereo.wav", wavFile({ channels: 2, data: new Uint8Array(960) }));
    write("empty.wav", new Uint8Array(0));
    const raw = {
      schema_version: "1.0",
      scenarios: [
        scenario("a_clean", [{ id: "caller", path: "audio/ok.wav" }]),
        scenario("b_noisy", [{ id: "caller", path: "audio/stereo.wav", condition: "noisy" }]),
        scenario("c_clean", [{ id: "caller", path: "audio/missing.wav" }, { id: "second", path: "audio/empty.wav" }]),
        { ...scenario("d_text_only", []), input: { text: "No recording here." } },
      ],
    };
    writeFileSync(file, JSON.stringify(raw));
    const problems = validateRecordings(parseDataset(raw, file), file);
    expect(problems.map((p) => [p.scenario_id, p.recording_id, p.code])).toEqual([
      ["b_noisy", "caller", "unsupported_format"],
      ["c_clean", "caller", "missing_file"],
      ["c_clean", "second", "empty_file"],
    ]);
    expect(problems.every((p) => p.message.includes(`in dataset ${file}`))).toBe(true);
    expect(validateRecordings(parseDataset({ ...raw, scenarios: raw.scenarios.slice(0, 1) }, file), file)).toEqual([]);
    void dir;
  });
});

describe("recordings reached through symbolic links", () => {
  /** A recording at `audio/caller.wav` of a dataset in `<root>/set`, loaded; the error when refused. */
  const load = (datasetDir: string) => {
    try {
      return loadRecording(join(datasetDir, "walk.json"), { id: "harbor_003" }, { id: "caller_recording", path: "audio/caller.wav" });
    } catch (error) {
      return error as RecordingError;
    }
  };
  const layout = () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "walk-links-")));
    const set = join(root, "set");
    mkdirSync(join(set, "store"), { recursive: true });
    mkdirSync(join(root, "elsewhere"));
    writeFileSync(join(set, "store", "caller.wav"), good);
    writeFileSync(join(root, "elsewhere", "caller.wav"), good);
    return { root, set };
  };

  it("a link to a file or a folder inside the dataset's folder is followed", () => {
    const { set } = layout();
    mkdirSync(join(set, "audio"));
    symlinkSync("../store/caller.wav", join(set, "audio", "caller.wav"));
    expect(load(set)).toMatchObject({ samples: speech.length });
    rmSync(join(set, "audio"), { recursive: true });
    symlinkSync("store", join(set, "audio"));
    expect(load(set)).toMatchObject({ samples: speech.length });
  });

  it("a link to a file, or through a folder, outside the dataset's folder is refused like '..', by its real path", () => {
    const { root, set } = layout();
    mkdirSync(join(set, "audio"));
    symlinkSync(join(root, "elsewhere", "caller.wav"), join(set, "audio", "caller.wav"));
    const file = load(set) as RecordingError;
    expect(file).toBeInstanceOf(RecordingError);
    expect(file.code).toBe("outside_folder");
    expect(file.message).toBe(
      `Recording "caller_recording" of scenario "harbor_003" in dataset ${join(set, "walk.json")} (audio/caller.wav → ${join(set, "audio", "caller.wav")}) cannot be used: ` +
        `field input.recordings[].path leads through a symbolic link to ${join(root, "elsewhere", "caller.wav")}, outside the dataset's folder ${set}. ` +
        "copy the file into the dataset's folder (cp -L audio/caller.wav …) and point the path at the copy; a link may only reach a file inside the dataset's folder, or git-annex's objects of the dataset's own repository.",
    );
    rmSync(join(set, "audio"), { recursive: true });
    symlinkSync(join(root, "elsewhere"), join(set, "audio"));
    expect((load(set) as RecordingError).code).toBe("outside_folder");
    // A relative link climbing out is the same.
    rmSync(join(set, "audio"));
    symlinkSync("../elsewhere", join(set, "audio"));
    expect((load(set) as RecordingError).code).toBe("outside_folder");
    // The dataset's folder itself reached through a link: its real path counts, so the link inside still works.
    rmSync(join(set, "audio"));
    symlinkSync("store", join(set, "audio"));
    symlinkSync(set, join(root, "set-link"));
    expect(load(join(root, "set-link"))).toMatchObject({ samples: speech.length });
  });

  it("git-annex: a link into the annex objects of the repository holding the dataset is followed; another repository's is refused", () => {
    const { root, set } = layout();
    // The repository is root; its dataset lives in set/.
    const object = join(root, ".git", "annex", "objects", "Xx", "Yy", "SHA256E-s1--ab.wav");
    mkdirSync(join(object, ".."), { recursive: true });
    writeFileSync(object, good);
    mkdirSync(join(set, "audio"));
    symlinkSync(object, join(set, "audio", "caller.wav"));
    expect(load(set)).toMatchObject({ samples: speech.length });
    // Another repository's annex is outside, like any other folder.
    const other = realpathSync(mkdtempSync(join(tmpdir(), "walk-other-repo-")));
    const foreign = join(other, ".git", "annex", "objects", "a.wav");
    mkdirSync(join(foreign, ".."), { recursive: true });
    writeFileSync(foreign, good);
    rmSync(join(set, "audio", "caller.wav"));
    symlinkSync(foreign, join(set, "audio", "caller.wav"));
    expect((load(set) as RecordingError).code).toBe("outside_folder");
    // Outside annex/objects, the repository's .git is no dataset's folder either.
    writeFileSync(join(root, ".git", "config.wav"), good);
    rmSync(join(set, "audio", "caller.wav"));
    symlinkSync(join(root, ".git", "config.wav"), join(set, "audio", "caller.wav"));
    expect((load(set) as RecordingError).code).toBe("outside_folder");
  });
});
