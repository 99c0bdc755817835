import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import type { TrialDetail } from "../src/core/report/client/data";
import { unpackTrial } from "../src/core/report/html";
import { ResultsFile } from "../src/core/record/results";

/**
 * `--artifacts`: by default a run keeps the audio of every trial that did not pass and of each case's
 * first repetition, and every trial's transcript and events; conversation.wav is the one recording.
 */
const repo = resolve(import.meta.dirname, "..");

async function runTo(argv: string[]): Promise<{ code: number; dir: string; doc: ResultsFile }> {
  const out = mkdtempSync(join(tmpdir(), "artifacts-policy-"));
  const code = await main(["run", ...argv, "--results-dir", out, "--quiet"], { stdout: () => {}, stderr: () => {}, cwd: repo, alpha: alpha as Record<string, unknown>, env: {} });
  const dir = join(out, readdirSync(out)[0]!);
  return { code, dir, doc: ResultsFile.parse(JSON.parse(readFileSync(join(dir, "results.json"), "utf8"))) };
}

const wavs = (dir: string) => (existsSync(join(dir, "audio")) ? readdirSync(join(dir, "audio")).filter((k) => existsSync(join(dir, "audio", k, "conversation.wav"))) : []);
const key = (trialId: string) => trialId.replace(/#(\d+)$/, ".r$1");

describe("artifacts that fit", () => {
  it("the default keeps every failed trial's audio and each case's first repetition, and says plainly where audio was not kept", async () => {
    // A target that double-books fails the booking case (003) and passes the other (008).
    const { code, dir, doc } = await runTo(["--target", "faulty_double_books", "--example", "harbor_008", "--example", "harbor_003", "--repetitions", "3", "--advisory", "no_double_booking"]);
    expect(code).toBe(1);
    const failed = doc.trials.filter((t) => t.status !== "passed");
    const passedLater = doc.trials.filter((t) => t.status === "passed" && t.repetition > 1);
    expect(failed.length).toBeGreaterThanOrEqual(3);
    expect(passedLater.length).toBeGreaterThanOrEqual(2);
    for (const t of failed) {
      expect(t.artifacts.conversation_wav, t.trial_id).toBe(`audio/${key(t.trial_id)}/conversation.wav`);
      expect(existsSync(join(dir, t.artifacts.conversation_wav!))).toBe(true);
    }
    for (const t of doc.trials.filter((t) => t.repetition === 1)) expect(existsSync(join(dir, t.artifacts.conversation_wav!)), t.trial_id).toBe(true);
    for (const t of passedLater) {
      expect(t.artifacts.conversation_wav, t.trial_id).toBeUndefined();
      const note = JSON.parse(readFileSync(join(dir, t.artifacts.transcript!), "utf8")).audio;
      expect(note).toMatchObject({ kept: false, reason: expect.stringMatching(/--artifacts failures/) });
      // No audio folder for it: its readable transcript sits with the other transcripts.
      expect(existsSync(join(dir, "audio", key(t.trial_id)))).toBe(false);
      expect(t.artifacts.conversation_transcript).toBe(`transcripts/${key(t.trial_id)}.txt`);
      expect(readFileSync(join(dir, t.artifacts.conversation_transcript!), "utf8")).toMatch(/^USER \d+\.\.\d+ms: /);
    }
    expect(wavs(dir).sort()).toEqual(doc.trials.filter((t) => t.status !== "passed" || t.repetition === 1).map((t) => key(t.trial_id)).sort());
    // conversation.wav, and beside it the caller audio sent and the assistant audio captured, as the reference harness lays a trial out.
    for (const k of wavs(dir)) expect(readdirSync(join(dir, "audio", k)).sort()).toEqual(["conversation.transcript.txt", "conversation.wav", "input.wav", "output.wav"]);
    // Every trial keeps its transcript and its gzipped events.
    for (const t of doc.trials) {
      expect(existsSync(join(dir, t.artifacts.transcript!))).toBe(true);
      expect(t.artifacts.events).toMatch(/\.jsonl\.gz$/);
      const events = gunzipSync(readFileSync(join(dir, t.artifacts.events!))).toString("utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(events.some((e) => e.type === "session.closed")).toBe(true);
    }
    // The report says why a trial has no audio instead of offering a player with nothing behind it.
    const html = readFileSync(join(dir, "report.html"), "utf8");
    const details = [...html.matchAll(/<script type="application\/x-crashlab-trial" id="trial-\d+">([^<]*)<\/script>/g)].map((m) => JSON.parse(unpackTrial(m[1]!)) as TrialDetail);
    for (const d of details) {
      if (d.artifacts.conversation_wav) expect(d.audio_note).toBeNull();
      else expect(d.audio_note).toMatch(/^audio not kept: a passed trial after the first repetition/);
    }
    expect(details.filter((d) => d.audio_note).length).toBe(passedLater.length);
    // A failed trial's input comes back exactly, checked against its record.
    let said = "";
    const failing = failed.find((t) => t.repetition > 1)!;
    expect(await main(["audio", "extract", dir, "--trial", failing.trial_id], { stdout: (t) => (said += t), stderr: (t) => (said += t), cwd: repo, alpha: {}, env: {} })).toBe(0);
    expect(said).toContain(`= the record's input`);
    expect(await main(["audio", "extract", dir, "--trial", passedLater[0]!.trial_id], { stdout: () => {}, stderr: (t) => (said = t), cwd: repo, alpha: {}, env: {} })).toBe(2);
    expect(said).toMatch(/was not kept: a passed trial after the first repetition/);
  });

  it("--artifacts all keeps every trial's audio, --artifacts none keeps none; a bad value is a usage error", async () => {
    const all = await runTo(["--example", "harbor_001", "--repetitions", "2", "--artifacts", "all"]);
    expect(wavs(all.dir).sort()).toEqual(["harbor_001.r1", "harbor_001.r2"]);
    const none = await runTo(["--example", "harbor_001", "--repetitions", "2", "--artifacts", "none"]);
    expect(wavs(none.dir)).toEqual([]);
    for (const t of none.doc.trials) expect(JSON.parse(readFileSync(join(none.dir, t.artifacts.transcript!), "utf8")).audio).toMatchObject({ kept: false, reason: expect.stringMatching(/--artifacts none/) });
    let err = "";
    const out = mkdtempSync(join(tmpdir(), "artifacts-bad-"));
    expect(await main(["run", "--artifacts", "some", "--results-dir", out], { stdout: () => {}, stderr: (t) => (err += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {} })).toBe(2);
    expect(err).toMatch(/--artifacts takes one of all, failures, none \(got "some"\)/);
    expect(readdirSync(out)).toEqual([]);
  });
});
