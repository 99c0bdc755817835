import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import * as alpha from "../src/alpha/index";
import { resolveRun } from "../src/core/run/run";
import { main } from "../src/core/cli/main";
import { definePlan } from "../src/core/run/plan";
import { run } from "../src/core/run/run";
import type { TargetAdapter } from "../src/core/target/types";
import { EspeakSynthesizer } from "../src/core/speech/index";
import { loadRecording } from "../src/core/walk/recordings";

/**
 * WALK offline: every bundled recording is replayed from its WAV bytes (never regenerated) through the
 * local GPT-Live simulator, graded like CRAWL, and reported per acoustic condition.
 */
const walkCases = PLAN.cases.filter((c) => c.recording);
const repo = resolve(import.meta.dirname, "..");

describe("WALK through the GPT-Live simulator", () => {
  it("bundles 5 clean recordings plus one conditioned recording per CRAWL scenario, all seven presets", () => {
    const crawl = PLAN.cases.filter((c) => c.kind === "crawl");
    expect(walkCases.length).toBe(crawl.length + 5);
    const conditions = new Set(walkCases.map((c) => c.recording!.condition));
    expect([...conditions].sort()).toEqual(["background_speech", "clean", "echo", "noisy", "packet_loss", "realistic", "telephony"]);
  });

  it("passes every bundled WALK case and breaks pass rates down by condition", async () => {
    const result = await run(PLAN, { selection: { ids: walkCases.map((c) => c.id) }, concurrency: 4 });
    expect(result.records.filter((r) => r.status !== "passed").map((r) => `${r.trial_id}: ${r.error?.message ?? r.assessments.find((a) => a.status === "failed")?.rationale}`)).toEqual([]);
    expect(result.records.every((r) => r.input.kind === "recording" && r.case_kind === "walk")).toBe(true);
    const rows = Object.fromEntries(result.summary.conditions.map((c) => [c.condition, [c.trials, c.passes]]));
    expect(rows).toEqual({ clean: [9, 9], noisy: [4, 4], telephony: [4, 4], background_speech: [4, 4], echo: [4, 4], packet_loss: [4, 4], realistic: [4, 4] });
    // The recording's metadata travels into the results.
    expect(result.records[0]!.input.recording!.metadata.preset).toBe(result.records[0]!.input.recording!.condition);
  });

  it("sends exactly the recording's PCM data: the bytes on the wire equal the file's data chunk", async () => {
    const sent: Uint8Array[] = [];
    const c = walkCases.find((x) => x.recording!.condition === "realistic")!;
    const restaurant = PLAN.targets.restaurant!;
    const spy = (settings: Parameters<Extract<typeof restaurant, (...a: never[]) => unknown>>[0]): TargetAdapter => {
      const inner = typeof restaurant === "function" ? restaurant(settings) : restaurant;
      return {
        ...inner,
        async start(request, io) {
          const session = await inner.start(request, io);
          return {
            sendAudio: (chunk: Uint8Array) => {
              sent.push(chunk.slice());
              session.sendAudio!(chunk);
            },
            close: () => session.close(),
          };
        },
      };
    };
    const plan = definePlan({ ...PLAN, targets: { spy }, default_target: "spy" });
    const result = await run(plan, { selection: { ids: [c.id] } });
    expect(result.records[0]!.status).toBe("passed");
    const file = loadRecording(c.dataset_file, c.scenario, { id: c.recording!.id, path: c.recording!.path });
    const wire = Buffer.concat(sent);
    expect(wire.subarray(0, file.pcm.length).equals(Buffer.from(file.pcm))).toBe(true);
    // Only the final chunk is zero-padded, then the microphone stays open with silence (docs/audio-and-metrics.md).
    expect(wire.subarray(file.pcm.length).every((b) => b === 0)).toBe(true);
    expect(result.records[0]!.input.recording!.path).toBe(c.recording!.declared_path);
  });

  it("keeps each trial's words to its own session when a CRAWL synthesis and a WALK recording share audio", async () => {
    // harbor_003_clean is the same espeak speech as harbor_003, padded with silence: identical chunks.
    const speech = new EspeakSynthesizer({ voice: "coral" });
    const result = await run(PLAN, { speech, selection: { ids: ["harbor_003", "harbor_003_clean"] }, repetitions: 2, concurrency: 2 });
    expect(result.records.map((r) => [r.trial_id, r.status])).toEqual([
      ["harbor_003#1", "passed"],
      ["harbor_003#2", "passed"],
      ["harbor_003_clean#1", "passed"],
      ["harbor_003_clean#2", "passed"],
    ]);
  });

  it("filters by condition and by recording metadata", async () => {
    const byCondition = resolveRun(PLAN, { selection: { conditions: ["telephony"] } });
    const walked = byCondition.trials.filter((t) => t.case.kind === "walk");
    expect(walked.map((t) => t.case.recording!.condition)).toEqual(["telephony", "telephony", "telephony", "telephony"]);
    // RUN conversations stay: a condition degrades their simulated caller's speech instead.
    expect(byCondition.trials.filter((t) => t.case.kind !== "walk").every((t) => t.case.kind === "run")).toBe(true);
    expect(byCondition.trials.filter((t) => t.case.kind === "run").length).toBe(PLAN.cases.filter((c) => c.kind === "run").length);
    const byWhere = resolveRun(PLAN, { selection: { where: ["synthesizer.voice=EN-US+F3", "preset=echo"] } });
    expect(byWhere.trials.length).toBe(4);
    expect(() => resolveRun(PLAN, { selection: { where: ["accent"] } })).toThrow(/--where takes key=value/);
  });

  it("skips WALK cases for a text-only target, and says so", async () => {
    const resolved = resolveRun(PLAN, { target: "text_restaurant" });
    expect(resolved.trials.every((t) => !t.case.recording)).toBe(true);
    const walkSkips = resolved.skipped.filter((s) => /takes text; WALK cases replay recordings/.test(s.reason));
    expect(walkSkips.map((s) => s.case_id)).toEqual(walkCases.map((c) => c.id));
    // The spoken conversations of RUN are skipped too, for their own reason.
    const runSkips = resolved.skipped.filter((s) => /takes text; RUN cases hold a spoken conversation/.test(s.reason));
    expect(runSkips.length).toBe(PLAN.cases.filter((c) => c.kind === "run").length);
    expect(resolved.skipped.length).toBe(walkSkips.length + runSkips.length);
  });
});

async function cli(argv: string[], env: Record<string, string> = {}, cwd = repo) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, alpha: alpha as Record<string, unknown>, env });
  return { code, stdout, stderr };
}

describe("crashlab CLI for WALK", () => {
  it("validates a dataset's recordings and reports each problem with its fix", async () => {
    const dir = mkdtempSync(join(tmpdir(), "walk-validate-"));
    mkdirSync(join(dir, "audio"));
    // A stereo 44.1 kHz WAV: 44-byte header + a little data.
    const header = Buffer.alloc(44);
    header.write("RIFF", 0);
    header.writeUInt32LE(36 + 8, 4);
    header.write("WAVEfmt ", 8);
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(2, 22);
    header.writeUInt32LE(44100, 24);
    header.writeUInt32LE(44100 * 4, 28);
    header.writeUInt16LE(4, 32);
    header.writeUInt16LE(16, 34);
    header.write("data", 36);
    header.writeUInt32LE(8, 40);
    writeFileSync(join(dir, "audio", "stereo.wav"), Buffer.concat([header, Buffer.alloc(8, 1)]));
    const scenario = JSON.parse(readFileSync(join(repo, "crashlab/data/walk.json"), "utf8")).scenarios[0];
    scenario.input.recordings = [{ id: "r1", path: "audio/stereo.wav", condition: "clean", metadata: {} }, { id: "r2", path: "audio/missing.wav" }];
    writeFileSync(join(dir, "walk.json"), JSON.stringify({ schema_version: "1.0", scenarios: [scenario] }));
    const { code, stderr } = await cli(["validate", "walk.json"], {}, dir);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Recording "r1" of scenario "harbor_003_clean" in dataset .*walk\.json .*stereo.*sox .*stereo\.wav.* -r 24000 -c 1 -b 16 -e signed-integer/);
    expect(stderr).toMatch(/Recording "r2" .*the file does not exist/);
  });

  it("generate-audio is a crashlab command, and what it writes validates", async () => {
    const dir = mkdtempSync(join(tmpdir(), "walk-gen-cli-"));
    const help = await cli(["generate-audio", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--vary-conditions");
    const out = join(dir, "walk.json");
    const made = await cli(["generate-audio", "--data", join(repo, "crashlab/data/crawl.json"), "--output-data", out, "--example", "harbor_024", "--condition", "telephony", "--seed", "3"]);
    expect(made.code).toBe(0);
    expect(made.stderr).toContain("harbor_024_telephony: telephony from synthesized");
    const checked = await cli(["validate", out]);
    expect(checked.stdout).toMatch(/valid, 1 scenario\(s\) \(1 single_turn\), 1 recording\(s\) checked/);
    const written = JSON.parse(readFileSync(out, "utf8")).scenarios[0];
    expect(written.input.recordings[0]).toMatchObject({ condition: "telephony", metadata: { preset: "telephony", seed: 3 } });
  });

  it("--listen plays each conversation with an available player, and says so when there is none", async () => {
    const bin = mkdtempSync(join(tmpdir(), "walk-player-"));
    const log = join(bin, "played.txt");
    writeFileSync(join(bin, "aplay"), `#!/bin/sh\necho "$@" >> ${log}\n`);
    chmodSync(join(bin, "aplay"), 0o755);
    const out = mkdtempSync(join(tmpdir(), "walk-out-"));
    const id = walkCases[0]!.id;
    const played = await cli(["run", "--listen", "--example", id, "--results-dir", out, "--quiet"], { PATH: bin });
    expect(played.code).toBe(0);
    expect(readFileSync(log, "utf8")).toMatch(new RegExp(`-q .*audio/${id}\\.r1/conversation\\.wav`));
    const none = await cli(["run", "--listen", "--example", id, "--results-dir", out, "--quiet"], { PATH: "/nonexistent" });
    expect(none.code).toBe(0);
    expect(none.stderr).toMatch(/--listen found no audio player \(looked for aplay, paplay/);
    const concurrent = await cli(["run", "--listen", "--concurrency", "2"]);
    expect(concurrent.code).toBe(2);
    expect(concurrent.stderr).toMatch(/--listen plays one conversation at a time/);
  });
});
