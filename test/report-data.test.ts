import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { speechIntervals } from "../src/core/audio/speech";
import { pcm16Wav } from "../src/core/audio/wav";
import { interleaveStereo } from "../src/core/audio/pcm";
import { main } from "../src/core/cli/main";
import { WAVEFORM_ALPHABET, type ReportData, type TrialDetail } from "../src/core/report/client/data";
import { unpackTrial } from "../src/core/report/html";
import { buildRunReport, readResults } from "../src/core/report/run-folder";
import { gateView, reportData, trialDetail, type TranscriptFile } from "../src/core/report/view-model";
import { humanGate } from "../src/core/gate/human";
import { viewerScript } from "../src/core/report/viewer-bundle";
import { conversationView, peaks } from "../src/core/report/waveform";
import { loadWebrtcVad } from "../src/core/walk/webrtc-vad";
import { clauseOf, startJudgeServer, verdict, type JudgeServer } from "./judge-fixtures";

/**
 * What report.html embeds, checked without a browser: gate and decision states, the conversation view
 * read from conversation.wav, RUN action labels and yield spans, escaping and redaction, and a report
 * rebuilt from the run folder alone.
 */
const repo = resolve(import.meta.dirname, "..");
let server: JudgeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function cli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {} });
  return { code, stdout, stderr };
}

async function runTo(argv: string[]): Promise<{ code: number; dir: string }> {
  const out = mkdtempSync(join(tmpdir(), "report-data-"));
  const r = await cli(["run", ...argv, "--results-dir", out, "--quiet"]);
  return { code: r.code, dir: join(out, readdirSync(out)[0]!) };
}

/** The embedded run data and trial details of a report.html. */
function embedded(html: string): { data: ReportData; trials: TrialDetail[] } {
  const block = (type: string, id: string) => {
    const m = new RegExp(`<script type="${type}" id="${id}">([^]*?)</script>`).exec(html);
    if (!m) throw new Error(`no block ${id}`);
    return m[1]!;
  };
  const data = JSON.parse(block("application/json", "run-data")) as ReportData;
  return { data, trials: data.trials.map((_, i) => JSON.parse(unpackTrial(block("application/x-crashlab-trial", `trial-${i}`))) as TrialDetail) };
}

function tone(ms: number, rate: number, amplitude: number): Int16Array {
  const out = new Int16Array(Math.round((ms * rate) / 1000));
  for (let i = 0; i < out.length; i++) out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * 220 * i) / rate));
  return out;
}

describe("report data", () => {
  it("the page script is bundled from src/core/report/client when running from the sources", () => {
    const script = viewerScript();
    expect(script.length).toBeGreaterThan(10_000);
    expect(script.startsWith('"use strict";(()=>{')).toBe(true);
  });

  it("a human gate shows its review standing (not assessed, too few reviews), never failed while it awaits reviews", () => {
    const rule = { required: true, min_pass_rate: 1, wilson: false, min_reviewed: 2 };
    const trials = [{ trial_id: "a#1" }, { trial_id: "a#2" }, { trial_id: "a#3" }];
    const view = (verdicts: Array<[string, "passed" | "failed"]>) =>
      gateView(humanGate("human.pacing", rule, trials, new Map(verdicts.map(([id, v]) => [id, new Map([["human.pacing", v]])]))) as never, []);
    expect(view([])).toMatchObject({ state: "not_assessed", human: { status: "not_assessed", reviewed: 0, trials: 3 } });
    expect(view([["a#1", "passed"]])).toMatchObject({ state: "too_few_reviews", human: { status: "too_few_reviews", reviewed: 1, min_reviewed: 2 }, reasons: [] });
    expect(view([["a#1", "passed"], ["a#2", "passed"]])).toMatchObject({ state: "passed", human: { status: "assessed", passes: 2 } });
    expect(view([["a#1", "passed"], ["a#2", "failed"]])).toMatchObject({ state: "failed", human: { status: "assessed", failures: 1 } });
  });

  it("the conversation view holds each channel's peaks and the speech regions of the metrics' detector", async () => {
    const rate = 24_000;
    const left = new Int16Array(rate * 3);
    const right = new Int16Array(rate * 3);
    left.set(tone(1000, rate, 8000), rate / 2); // caller 0.5–1.5 s
    right.set(tone(1000, rate, 3000), rate); // assistant 1.0–2.0 s
    const wav = pcm16Wav(interleaveStereo(left, right), rate, 2);
    const view = await conversationView(wav, "audio/x/conversation.wav", "rms>=220/20ms");
    expect(view).toMatchObject({ src: "audio/x/conversation.wav", duration_ms: 3000, bin_ms: 40, caller_speech: [[500, 1500]], assistant_speech: [[1000, 2000]], overlaps: [[1000, 1500]], detector: "rms>=220/20ms" });
    expect(view.caller).toHaveLength(75);
    // Silent bins are level 0; a peak of 8000 is sqrt(8000/32768)·63 ≈ 31.
    expect(view.caller[0]).toBe("A");
    expect(WAVEFORM_ALPHABET.indexOf(view.caller[25]!)).toBe(Math.round(Math.sqrt(8000 / 32768) * 63));
    expect(WAVEFORM_ALPHABET.indexOf(view.assistant[37]!)).toBe(Math.round(Math.sqrt(3000 / 32768) * 63));
    // Each channel is read back exactly (negative samples included), wherever the file's bytes sit in memory.
    expect(view.caller).toBe(peaks(left, rate, 40));
    expect(view.assistant).toBe(peaks(right, rate, 40));
    const shifted = Buffer.alloc(wav.length + 1);
    shifted.set(wav, 1);
    expect(await conversationView(shifted.subarray(1), "audio/x/conversation.wav", "rms>=220/20ms")).toEqual(view);
    // With the WebRTC detector named in the metrics, the regions are WebRTC's.
    const vad = await loadWebrtcVad();
    const webrtc = await conversationView(wav, "c.wav", "webrtc-vad/fvad-wasm@0.2.0 mode 2");
    expect(webrtc.caller_speech).toEqual(vad.speechIntervals(left, rate).map((i) => [Math.round(i.start_ms), Math.round(i.end_ms)]));
    expect(speechIntervals(left, rate)).toEqual([{ start_ms: 500, end_ms: 1500 }]);
  });

  it("advisory gates without verdicts are not assessed; an advisory failure is a warning", async () => {
    const offline = await runTo(["--target", "text_faulty_double_books", "--example", "harbor_001", "--example", "harbor_003", "--advisory", "no_double_booking"]);
    expect(offline.code).toBe(1);
    const { data } = embedded(readFileSync(join(offline.dir, "report.html"), "utf8"));
    const gate = (id: string) => data.gates.find((g) => g.verifier === id)!;
    expect(gate("semantic.task_understanding")).toMatchObject({ state: "not_assessed", required: false, verdicts: 0, reasons: [] });
    expect(gate("semantic.task_understanding").message).toBe("no verdicts: the semantic judge runs with --live or --judge");
    expect(gate("no_double_booking")).toMatchObject({ state: "advisory_failed", required: false });
    expect(data.decision.state).toBe("fail");
    // The trial list names what failed, for the "failing check" filter.
    expect(data.trials.find((t) => t.id === "harbor_003#1")!.failing).toContain("tool_contract");
  });

  it("a required semantic gate offline without a judge is refused before anything runs", async () => {
    const out = mkdtempSync(join(tmpdir(), "report-no-judge-"));
    let stderr = "";
    const code = await main(["run", "--target", "text_restaurant", "--example", "harbor_003", "--require", "semantic.context_fidelity", "--results-dir", out], {
      stdout: () => {},
      stderr: (t) => (stderr += t),
      cwd: repo,
      alpha: alpha as Record<string, unknown>,
      env: {},
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/semantic\.context_fidelity is required, but no semantic judge runs: add --judge/);
    expect(readdirSync(out)).toEqual([]);
  });

  it("a required semantic gate that ended inconclusive shows the judge's reason code", async () => {
    server = await startJudgeServer((body) => ({ status: 200, json: verdict({ verdict: "pass", severity_score: 1, rationale: `${clauseOf(body)} holds`, cited_evidence_ids: [], ...(clauseOf(body) === "task_understanding" ? { task_completed: true } : {}) }) }));
    const r = await runTo(["--target", "text_restaurant", "--example", "harbor_003", "--judge", "--judge-endpoint", server.endpoint, "--require", "semantic.task_understanding"]);
    expect(r.code).toBe(1);
    const reason = readResults(r.dir).trials[0]!.assessments.find((a) => a.verifier === "semantic.task_understanding")!.judge!.reason;
    expect(reason).toBeTruthy();
    const { data } = embedded(readFileSync(join(r.dir, "report.html"), "utf8"));
    const gate = data.gates.find((g) => g.verifier === "semantic.task_understanding")!;
    expect(gate).toMatchObject({ state: "failed", reasons: [`inconclusive: ${reason} (1 trial)`] });
    expect(data.consumption.judge.judged).toBe(3);
    expect(data.consumption.target.backend_tokens).toBeNull();
  });

  it("an interrupted run's decision is interrupted (no pass), naming the signal and what did not run", async () => {
    const out = mkdtempSync(join(tmpdir(), "report-interrupted-"));
    const interrupt = new AbortController();
    const code = await main(["run", "--target", "text_restaurant", "--example", "harbor_001", "--example", "harbor_002", "--example", "harbor_003", "--results-dir", out], {
      stdout: () => {},
      // The first progress line: one trial has finished.
      stderr: (t) => (t.startsWith("[1/3]") ? interrupt.abort("SIGINT") : undefined),
      cwd: repo,
      alpha: alpha as Record<string, unknown>,
      env: {},
      signal: interrupt.signal,
    });
    expect(code).toBe(130);
    const dir = join(out, readdirSync(out)[0]!);
    const notRun = readResults(dir).run.not_run;
    expect(notRun.length).toBeGreaterThan(0);
    const { data } = embedded(readFileSync(join(dir, "report.html"), "utf8"));
    expect(data.decision).toMatchObject({ state: "interrupted", exit_code: 130 });
    expect(data.decision.reasons[0]).toBe(`the run was interrupted by SIGINT: ${notRun.length} trial(s) not run (${notRun.map((t) => t.case_id).join(", ")}); the gates cover the finished trials only`);
    expect(data.trials.length + notRun.length).toBe(3);
  });

  it("RUN turns keep their action labels; yield spans come from the metrics' yield_* lists", async () => {
    const r = await runTo(["--target", "text_restaurant", "--example", "harbor_001"]);
    const results = readResults(r.dir);
    const trial = results.trials[0]!;
    const transcript = JSON.parse(readFileSync(join(r.dir, trial.artifacts.transcript!), "utf8")) as TranscriptFile;
    const actions = ["OPENING", "SPEAK", "INTERRUPT", "BACKCHANNEL"] as const;
    const turns = transcript.turns.map((t, i) => (t.role === "user" ? { ...t, action: actions[i % actions.length]! } : t));
    const audio: Record<string, alpha.Json> = {
      response_latency_ms: 900,
      opportunities: [{ utterance: 0, action: "SPEAK", request_end_ms: 1000, outcome: "answered", response_start_ms: 1900, latency_ms: 900 }],
      yield_opportunities: [
        { utterance: 1, action: "INTERRUPT", caller_start_ms: 5000, assistant_start_ms: 4000, assistant_end_ms: 5400, kind: "yield", delay_ms: 400, yielded: true },
        { utterance: 2, action: "BACKCHANNEL", caller_start_ms: 7000, assistant_start_ms: 6500, assistant_end_ms: 9000, kind: "backchannel", outcome: "continued" },
      ],
    };
    const detail = trialDetail({ trial: { ...trial, metrics: { ...trial.metrics, audio } }, transcript: { ...transcript, turns, evidence_catalog: null }, audio: null, problems: [] });
    expect(detail.turns.filter((t) => t.role === "user").map((t) => t.action)).toEqual(turns.filter((t) => t.role === "user").map((t) => (t as { action?: string }).action));
    expect(detail.turns.filter((t) => t.role === "assistant").every((t) => t.action === null)).toBe(true);
    expect(detail.latency_spans).toEqual([{ start_ms: 1000, end_ms: 1900, label: "900 ms", tone: "ok" }]);
    // A RUN record's conversation names each caller utterance's intent: the label when a turn has no action.
    const firstUser = transcript.turns.find((t) => t.role === "user")!;
    const fromIntent = trialDetail({ trial, transcript: { ...transcript, evidence_catalog: null, conversation: { utterances: [{ intent: "opening", start_ms: firstUser.start_ms + 40 }] } }, audio: null, problems: [] });
    expect(fromIntent.turns.find((t) => t.role === "user")!.action).toBe("OPENING");
    expect(detail.yield_spans).toEqual([
      { start_ms: 5000, end_ms: 5400, label: "yield 400 ms", tone: "ok" },
      { start_ms: 7000, end_ms: 9000, label: "kept talking over backchannel", tone: "ok" },
    ]);
  });

  it("shows a late answer's measured latency in the trial list, the timing card and the transcript, never a blank", async () => {
    const r = await runTo(["--target", "text_restaurant", "--example", "harbor_001"]);
    const results = readResults(r.dir);
    const trial = results.trials[0]!;
    const transcript = JSON.parse(readFileSync(join(r.dir, trial.artifacts.transcript!), "utf8")) as TranscriptFile;
    const reply = transcript.turns.find((t) => t.role === "assistant")!;
    const asked = transcript.turns.find((t) => t.role === "user")!;
    // One request answered 6680 ms after the caller stopped: past the 5000 ms deadline, so says missed.
    const lateAt = reply.start_ms;
    const audio: Record<string, alpha.Json> = {
      response_latency_ms: null,
      late_response_latencies_ms: [6680],
      response_latencies_ms: [6680],
      response_latency_mean_ms: 6680,
      response_latency_p90_ms: 6680,
      response_latency_max_ms: 6680,
      unanswered_count: 0,
      opportunities: [{ utterance: 0, action: "SPEAK", request_end_ms: lateAt - 6680, outcome: "missed", reason: "deadline_expired", late_latency_ms: 6680 }],
    };
    const late = { ...trial, metrics: { ...trial.metrics, audio } };
    const data = reportData({ ...results, trials: [late] });
    expect(data.trials[0]!.latency_ms).toBe(6680);
    expect(data.timing.response_latency_ms).toEqual({ p50: 6680, p90: 6680, n: 1 });
    const detail = trialDetail({ trial: late, transcript: { ...transcript, evidence_catalog: null }, audio: null, problems: [] });
    expect(detail.latency_spans).toEqual([{ start_ms: lateAt - 6680, end_ms: lateAt, label: "late 6680 ms", tone: "bad" }]);
    expect(asked.start_ms).toBeLessThan(lateAt);
    expect(detail.turns.find((t) => t.role === "assistant")!.latency_ms).toBe(6680);
    // Nothing answered at all: the list stays blank, the span says so, and no turn claims a latency.
    const none = { ...trial, metrics: { ...trial.metrics, audio: { ...audio, response_latencies_ms: [], response_latency_mean_ms: null, response_latency_p90_ms: null, response_latency_max_ms: null, unanswered_count: 1, opportunities: [{ utterance: 0, action: "SPEAK", request_end_ms: lateAt - 6680, outcome: "missed", reason: "deadline_expired", late_latency_ms: null }] } } };
    expect(reportData({ ...results, trials: [none] }).trials[0]!.latency_ms).toBeNull();
    const silent = trialDetail({ trial: none, transcript: { ...transcript, evidence_catalog: null }, audio: null, problems: [] });
    expect(silent.turns.every((t) => t.latency_ms === null)).toBe(true);
  });

  it("is rebuilt from the run folder alone, identically; text cannot close its script element and secrets are redacted", async () => {
    const r = await runTo(["--target", "text_restaurant", "--example", "harbor_001", "--example", "harbor_003"]);
    const written = readFileSync(join(r.dir, "report.html"), "utf8");
    expect(await buildRunReport(r.dir)).toBe(written);
    // Self-contained: no external script, stylesheet, image or frame; the CSP forbids connections.
    expect(written).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
    expect(written).toContain("default-src 'none'");

    const copy = join(mkdtempSync(join(tmpdir(), "report-tamper-")), "run");
    cpSync(r.dir, copy, { recursive: true });
    const trial = readResults(copy).trials[0]!;
    const file = join(copy, trial.artifacts.transcript!);
    const transcript = JSON.parse(readFileSync(file, "utf8")) as TranscriptFile & { evidence_catalog: { items: Array<Record<string, unknown>> } };
    const evil = "</script><script>alert(1)</script> key sk-live0123456789abcdef";
    transcript.evidence_catalog.items = transcript.evidence_catalog.items.map((i) => (i.id === "utt.user.1" ? { ...i, text: evil } : i));
    transcript.turns[0]!.text = evil; // the trial list's text search shows the caller's first words
    writeFileSync(file, JSON.stringify(transcript));
    const html = await buildRunReport(copy);
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("sk-live0123456789abcdef");
    const { data, trials } = embedded(html);
    expect(trials[0]!.turns[0]!.text).toBe("</script><script>alert(1)</script> key [REDACTED]");
    expect(data.trials[0]!.text).toBe("</script><script>alert(1)</script> key [REDACTED]");
  });
});
