import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { main } from "../src/core/cli/main";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { roundMs } from "../src/core/timeline/metrics";
import { describe, expect, it } from "vitest";
import { restaurantLiveTarget } from "../crashlab/adapters/restaurant-targets";
import { PLAN } from "../crashlab/evaluations";
import { RESTAURANT_BACKEND_INSTRUCTIONS, RESTAURANT_FRONTEND_INSTRUCTIONS } from "../examples/restaurant/instructions";
import { restaurantFaultsShownIn, restaurantPolicy } from "../examples/restaurant/policy";
import { RESTAURANT_TOOLS } from "../examples/restaurant/tools";
import { pcm16FromBytes } from "../src/core/audio/pcm";
import { speechIntervals } from "../src/core/audio/speech";
import { readWav } from "../src/core/audio/wav";
import { gptLiveTarget } from "../src/core/gpt-live-target/adapter";
import type { LiveFaultKind } from "../src/core/simulator/faults";
import { writeTrialArtifacts } from "../src/core/report/artifacts";
import { definePlan } from "../src/core/run/plan";
import type { TrialRecord } from "../src/core/record/trial-record";
import { run, type RunOptions } from "../src/core/run/run";
import type { TrialMedia } from "../src/core/trial/context";
import { CachedSynthesizer, EspeakSynthesizer } from "../src/core/speech/index";
import { DEFAULT_TARGET_SETTINGS } from "../src/core/target/settings";

/**
 * CRAWL end to end, offline: espeak-ng caller speech → paced PCM over a real WebSocket → the local
 * GPT-Live simulator driven by the restaurant policy → tools through the harness → spoken answer →
 * grading, metrics and artifacts. (Offline runs check the pipeline, not speech understanding.)
 */
const speech = new CachedSynthesizer(new EspeakSynthesizer({ voice: "coral" }), { root: mkdtempSync(join(tmpdir(), "crawl-audio-cache-")) });
const audio = (options: RunOptions = {}): RunOptions => ({ speech, ...options });
// The single-request cases (CRAWL and WALK); conversations have their own test (test/run-conversations.test.ts).
const SINGLE = { ...PLAN, cases: PLAN.cases.filter((c) => c.kind !== "run") };

function failures(records: TrialRecord[]): string[] {
  return records.filter((r) => r.status !== "passed").map((r) => `${r.trial_id} ${r.status} ${r.error?.stage ?? ""} ${r.assessments.map((a) => `${a.verifier}=${a.status}: ${a.rationale}`).join(" | ")}`);
}

describe("CRAWL through audio and the GPT-Live simulator", () => {
  it.each(["responses", "client"] as const)("passes every bundled scenario with %s delegation", async (delegation) => {
    const result = await run(SINGLE, audio({ target: "restaurant", target_settings: { delegation } }));
    expect(failures(result.records)).toEqual([]);
    expect(result.records).toHaveLength(SINGLE.cases.length);
    for (const r of result.records) {
      const a = r.metrics.audio!;
      expect(a.metrics_version).toBe("2.0");
      expect(a.response_rate).toBe(1);
      expect(a.response_latency_ms as number).toBeGreaterThan(0);
      expect(a.response_latency_ms as number).toBeLessThan(5000);
      expect(r.metrics.consumption.frontend.audio_duration_ms as number).toBeGreaterThan(0);
      expect(r.turns.find((t) => t.role === "user")!.text.length).toBeGreaterThan(0);
    }
    // Delegation happened through the protocol's own mode.
    const delegated = result.records.flatMap((r) => r.delegations);
    expect(delegated.length).toBeGreaterThan(10);
    expect(new Set(delegated.map((d) => d.target))).toEqual(new Set([delegation]));
  });

  const intended: Record<string, string[]> = {
    books_uncorrected_date: ["application_state"],
    double_books: ["no_double_booking"],
    confirms_without_tool: ["tool_contract"],
    books_on_availability_question: ["authorized_actions"],
    guesses_missing_name: ["delegation_policy"],
    cancels_unauthorized: ["authorized_actions"],
    delegates_facts_question: ["delegation_policy"],
    ignores_history: ["application_state"],
    ignores_late_correction: ["application_state"],
  };
  it("has a fault matrix covering every faulty policy", () => {
    // Faults only a conversation can show are caught by the RUN cases (test/restaurant-conversation.test.ts).
    expect(Object.keys(intended).sort()).toEqual(restaurantFaultsShownIn("single_turn").sort());
  });
  it.each(Object.entries(intended))("still catches the %s fault (%j)", async (fault, checks) => {
    const result = await run(SINGLE, audio({ target: `faulty_${fault}`, concurrency: 4 }));
    const failed = result.records.filter((r) => r.status === "failed");
    const seen = new Set(failed.flatMap((r) => [...r.checks.filter((c) => c.required && c.status === "failed").map((c) => c.id), ...r.assessments.filter((a) => a.status === "failed").map((a) => a.verifier)]));
    for (const id of checks) expect(seen, `${fault} → ${id}`).toContain(id);
    expect(result.records.filter((r) => r.status === "infrastructure_error")).toEqual([]);
    expect(result.decision.exit_code).toBe(1);
  });

  it("measures response latency exactly as conversation.wav shows it", async () => {
    const booking = PLAN.cases.find((c) => c.id === "harbor_003")!;
    const media: TrialMedia[] = [];
    const result = await run(PLAN, audio({ selection: { ids: [booking.id] }, onTrialEnd: (_r, _d, _t, m) => void media.push(m!) }));
    const record = result.records[0]!;
    const dir = mkdtempSync(join(tmpdir(), "crawl-artifacts-"));
    const paths = writeTrialArtifacts(dir, record, media[0]!);
    const wav = readWav(readFileSync(join(dir, paths.conversation_wav!)));
    expect(wav).toMatchObject({ channels: 2, sampleRate: 24000, bitsPerSample: 16 });
    const stereo = pcm16FromBytes(wav.data);
    const left = stereo.filter((_, i) => i % 2 === 0);
    const right = stereo.filter((_, i) => i % 2 === 1);
    const caller = speechIntervals(left, 24000);
    const assistant = speechIntervals(right, 24000);
    const callerEnd = caller[caller.length - 1]!.end_ms;
    const firstAnswer = assistant.find((a) => a.start_ms >= callerEnd)!;
    expect(record.metrics.audio!.response_latency_ms).toBe(roundMs(firstAnswer.start_ms - callerEnd));
    // Beside conversation.wav, as the reference harness lays a trial out: input.wav, exactly the bytes sent,
    // and output.wav, the assistant audio captured (its stretches without the gaps); the input cut from its left channel is the same
    // bytes, checked against the record's sha256 by `crashlab audio extract`.
    expect(paths.input_wav).toBe(`audio/${record.trial_id.replace("#", ".r")}/input.wav`);
    const written = readWav(readFileSync(join(dir, paths.input_wav!)));
    expect(written).toMatchObject({ channels: 1, sampleRate: 24000 });
    expect(Buffer.from(written.data).equals(Buffer.from(media[0]!.input_pcm))).toBe(true);
    const output = readWav(readFileSync(join(dir, paths.output_wav!)));
    expect(output.channels).toBe(1);
    const spans = media[0]!.assistant.spans;
    const captured = spans.flatMap((sp) => [...media[0]!.assistant.track.subarray(sp.sample_offset, sp.sample_offset + sp.sample_count)]);
    expect(captured.length).toBeGreaterThan(24_000);
    expect(Buffer.from(pcm16ToBytesForTest(captured)).equals(Buffer.from(output.data))).toBe(true);
    let said = "";
    const code = await main(["audio", "extract", dir, "--trial", record.trial_id], { stdout: (t) => (said += t), stderr: (t) => (said += t), cwd: dir, alpha: {}, env: {} });
    expect(code).toBe(0);
    expect(said).toContain(`sha256 ${record.input.sha256} = the record's input`);
    const input = readWav(readFileSync(join(dir, "audio", record.trial_id.replace("#", ".r"), "input.wav")));
    expect(Buffer.from(input.data).equals(Buffer.from(media[0]!.input_pcm))).toBe(true);
    expect(input.data.length % 960).toBe(0);
    // Altered audio is caught: one sample of the caller's channel changed.
    const wavFile = join(dir, paths.conversation_wav!);
    const bytes = readFileSync(wavFile);
    const middle = Math.round((media[0]!.caller_start_ms * 24000) / 1000) + Math.floor(input.data.length / 4);
    bytes[bytes.length - wav.data.length + 4 * middle] ^= 0x55;
    writeFileSync(wavFile, bytes);
    expect(await main(["audio", "extract", dir, "--trial", record.trial_id], { stdout: () => {}, stderr: (t) => (said = t), cwd: dir, alpha: {}, env: {} })).toBe(1);
    expect(said).toMatch(/does not match the record's sha256/);
    // A file cut short (its header still promises the whole take) or cut and re-headed is refused, every track.
    const whole = Buffer.from(bytes);
    writeFileSync(wavFile, whole.subarray(0, whole.length - 4 * 24000));
    for (const track of ["input", "assistant"]) {
      expect(await main(["audio", "extract", dir, "--trial", record.trial_id, "--track", track], { stdout: () => {}, stderr: (t) => (said = t), cwd: dir, alpha: {}, env: {} })).toBe(2);
      expect(said).toMatch(/is cut short \(its header promises more audio than the file holds\): the run folder was damaged/);
    }
    const cut = Buffer.from(whole.subarray(0, whole.length - wav.data.length + 4 * (middle - 100)));
    cut.writeUInt32LE(cut.length - 8, 4);
    cut.writeUInt32LE(4 * (middle - 100), cut.length - 4 * (middle - 100) - 4);
    writeFileSync(wavFile, cut);
    expect(await main(["audio", "extract", dir, "--trial", record.trial_id, "--track", "caller"], { stdout: () => {}, stderr: (t) => (said = t), cwd: dir, alpha: {}, env: {} })).toBe(2);
    expect(said).toMatch(/holds \d+ samples per channel, fewer than the \d+ that reach the end of the caller's input/);
    writeFileSync(wavFile, whole);
    const transcript = readFileSync(join(dir, paths.conversation_transcript!), "utf8");
    expect(transcript).toMatch(/^USER \d+\.\.\d+ms: /m);
    expect(transcript).toMatch(/^DELEGATION \d+ms: target=responses$/m);
    expect(transcript).toMatch(/^TOOL \d+ms: name=create_reservation status=completed arguments=\{.*"date":"2026-08-06".*\} result=\{/m);
    expect(transcript).toMatch(/^ASSISTANT \d+\.\.\d+ms: .*August 6/m);
  });

  it("records which speech detector produced the timeline (RMS by default, WebRTC VAD on request)", async () => {
    const ids = ["harbor_003"];
    const rmsRun = await run(PLAN, audio({ selection: { ids } }));
    const vadRun = await run(PLAN, audio({ selection: { ids }, speech_detector: "webrtc" }));
    expect(rmsRun.records[0]!.metrics.audio!.speech_detector).toBe("rms>=220/20ms");
    expect(vadRun.records[0]!.metrics.audio!.speech_detector).toMatch(/^webrtc-vad/);
    expect(vadRun.records[0]!.status).toBe("passed");
    const latency = vadRun.records[0]!.metrics.audio!.response_latency_ms as number;
    expect(latency).toBeGreaterThan(0);
    expect(latency).toBeLessThan(5000);
  });

  it("is reproducible in virtual time: two runs give identical trial records", async () => {
    const ids = ["harbor_003", "harbor_008", "harbor_021"];
    const a = await run(PLAN, audio({ seed: 7, selection: { ids }, concurrency: 3 }));
    const b = await run(PLAN, audio({ seed: 7, selection: { ids } }));
    const strip = (r: TrialRecord) => ({ ...r, wall: null });
    expect(a.records.map(strip)).toEqual(b.records.map(strip));
  });
});

describe("simulator faults: the service's faults are infrastructure errors, the target's silence is its failure; the run goes on", () => {
  const expected: Array<[LiveFaultKind, string | null]> = [
    ["drop_before_started", "session_start"],
    ["no_session_closed", "session_close"],
    ["expired", "session"],
    ["fatal_error", "provider"],
    ["binary_frame", "protocol"],
    ["malformed_json", "protocol"],
    ["odd_length_pcm", "protocol"],
    // A target that stalls mid-answer stays silent: its failure (exit 1), not infrastructure.
    ["stall_mid_response", "failed"],
    // Unknown event types must be ignored (gpt-live-protocol.md): the trial is unaffected.
    ["unknown_event", null],
  ];
  it.each(expected)("%s → %s", async (fault, stage) => {
    let sessions = 0;
    const faulty = () =>
      gptLiveTarget({
        settings: DEFAULT_TARGET_SETTINGS,
        instructions: RESTAURANT_FRONTEND_INSTRUCTIONS,
        backend_instructions: RESTAURANT_BACKEND_INSTRUCTIONS,
        tools: RESTAURANT_TOOLS,
        // Only the first trial's session is faulty: the next trial must run normally.
        offline: { policy: restaurantPolicy(), faults: () => (sessions++ === 0 ? [{ kind: fault }] : []) },
      });
    const plan = definePlan({ ...PLAN, targets: { faulty }, default_target: "faulty" });
    const media: Array<TrialMedia | null> = [];
    const result = await run(plan, audio({ selection: { ids: ["harbor_003", "harbor_024"] }, onTrialEnd: (_r, _d, _t, m) => void media.push(m) }));
    const [first, second] = result.records;
    if (stage === null) expect(first!.status).toBe("passed");
    else if (stage === "failed") {
      expect(first!.status).toBe("failed");
      expect(first!.error).toBeNull();
      expect(first!.checks.find((c) => c.id === "conversation_completed")).toMatchObject({ status: "failed", required: true });
      expect(first!.checks.find((c) => c.id === "conversation_completed")!.rationale).toMatch(/^response_timeout: no complete response within 30 s of the end of caller audio \(still waiting for: /);
      // The stalled service never answers session.close either: recorded beside the failure, not instead.
      expect(first!.cleanup_errors).toEqual([{ stage: "session_close", message: "the session did not finalize cleanly (no session.closed within 10000 ms)" }]);
      expect(media[0]!.input_pcm.length).toBeGreaterThan(0);
    } else {
      expect(first!.status).toBe("infrastructure_error");
      expect(first!.error!.stage).toBe(stage);
      expect(first!.error!.message.length).toBeGreaterThan(0);
      expect(first!.events.some((e) => e.type === "trial.error")).toBe(true);
      if (stage !== "session_start") {
        // The caller audio sent so far is kept for the artifacts.
        expect(media[0]!.input_pcm.length).toBeGreaterThan(0);
        expect(first!.events.filter((e) => e.type === "raw").length).toBeGreaterThan(0);
      }
    }
    expect(second!.status).toBe("passed");
    expect(result.summary.errors_by_stage).toEqual(stage && stage !== "failed" ? { [stage]: 1 } : {});
  });
});

describe("the restaurant target refuses faults in live mode", () => {
  it("explains that faults live only in the offline policy", () => {
    expect(() => restaurantLiveTarget({ ...DEFAULT_TARGET_SETTINGS, mode: "live", api_key: "sk-x" }, ["double_books"])).toThrow(/exist only in the offline policy/);
  });
});

/** Samples as little-endian PCM16 bytes. */
function pcm16ToBytesForTest(samples: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(samples.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i]!, true);
  return out;
}
