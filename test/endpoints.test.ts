import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { pcm16ToBytes } from "../src/core/audio/pcm";
import { callerScript } from "../src/core/caller/script";
import { cli, runFolder } from "./cli-harness";
import { engineFor } from "./settings-harness";
import { DEFAULT_CALLER_VOICE } from "../src/core/speech/synthesizer";
import { startLiveSimulator, type LiveSimulator } from "../src/core/simulator/server";
import { bridgedEar, transcriptBridge, type TranscriptBridgeEnd } from "./transcript-bridge";
import { ResultsFile } from "../src/core/record/results";
import { EspeakSynthesizer } from "../src/core/speech/espeak";
import { bookingBackend, NOT_FOUND, outputTexts, recordingServer, responseBody, textOutput, type RecordingServer, type SeenHttp } from "./endpoint-fixtures";
import { clauseOf, verdict } from "./judge-fixtures";
import { agendaCallerPolicy } from "./live-caller-policy";
import { tone, toneSynthesizer } from "./live-helpers";
import { RESTAURANT } from "./restaurant-lexicon";

/**
 * Each service addressed on its own, each with its own credential and no other.
 * A custom Live server runs a CRAWL case with offline (espeak-ng) caller speech and gets exactly the key
 * named for it; then every service at once — target Live, client backend Responses, caller speech, judge,
 * the RUN caller's Live session and its completion observer — each on its own loopback server, with a
 * distinct key planted in every environment variable crashlab or the OpenAI SDK reads. Every request
 * header on every server and every output file is checked: each server saw its own key and nothing else.
 */

const KEYS = {
  OPENAI_API_KEY: "sk-planted-openai-AAAA1111aaaa",
  LIVE_KEY: "sk-planted-live-BBBB2222bbbb",
  RESP_KEY: "sk-planted-responses-CCCC3333cccc",
  SPEECH_KEY: "sk-planted-speech-DDDD4444dddd",
  JUDGE_KEY: "sk-planted-judge-EEEE5555eeee",
  CALLER_KEY: "sk-planted-caller-FFFF6666ffff",
  COMPLETION_KEY: "sk-planted-completion-GGGG7777gggg",
};
/** What the OpenAI SDK would read from the process environment on its own, each planted too. */
const PROCESS_PLANTS = {
  OPENAI_API_KEY: "sk-planted-process-openai-HHHH8888",
  OPENAI_ADMIN_KEY: "sk-planted-admin-IIII9999iiii",
  OPENAI_ORG_ID: "org-planted-JJJJ0000jjjj",
  OPENAI_PROJECT_ID: "proj_planted-KKKK1111kkkk",
  OPENAI_CUSTOM_HEADERS: "X-Planted-Custom: planted-custom-LLLL2222",
};
const ALL_PLANTED = [...Object.values(KEYS), ...Object.values(PROCESS_PLANTS).map((v) => v.replace(/^X-Planted-Custom: /, ""))];

let closers: Array<{ close(): Promise<void> }> = [];
const saved: Record<string, string | undefined> = {};
let trap: RecordingServer;

beforeEach(async () => {
  // Whatever the SDK would pick up from the process: a trap base URL (nothing may arrive there) and keys.
  trap = await recordingServer(() => NOT_FOUND);
  closers.push(trap);
  for (const [name, value] of Object.entries({ ...PROCESS_PLANTS, OPENAI_BASE_URL: `${trap.origin}/v1` })) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
afterEach(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  for (const c of closers.splice(0)) await c.close();
});

/** The trial's full detail (transcripts/<trial>.json): tool executions, delegations, the conversation. */
function transcriptOf(out: string, trialId: string): { trial_id: string; tool_executions: Array<{ name: string; status: string }>; delegations: Array<{ target: string }>; conversation?: { completion: unknown } } {
  const dir = join(runFolder(out), "transcripts");
  const details = readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as ReturnType<typeof transcriptOf>);
  return details.find((d) => d.trial_id === trialId)!;
}

/** Every credential-carrying header value of a request, as one string per header. */
function headerValues(headers: IncomingHttpHeaders): string[] {
  return Object.entries(headers).flatMap(([name, value]) => (Array.isArray(value) ? value : [value ?? ""]).map((v) => `${name}: ${v}`));
}

/** A Live server (our simulator as a stand-in for a gateway) that records each upgrade's headers. */
async function liveServer(options: { key: string; policy?: Parameters<typeof startLiveSimulator>[0]["policy"]; bridge?: TranscriptBridgeEnd; pitch?: number }) {
  const upgrades: IncomingHttpHeaders[] = [];
  const server: LiveSimulator = await startLiveSimulator({
    policy: options.policy ?? restaurantPolicy(),
    synthesizer: toneSynthesizer({ msPerChar: 6, pitch: options.pitch ?? 0 }),
    apiKey: options.key,
    onUpgrade: (headers) => upgrades.push(headers),
    ...(options.bridge ? { ear: bridgedEar(options.bridge) } : {}),
  });
  closers.push(server);
  return { server, upgrades };
}

/** Each server saw only its own key, in the Authorization header, and nothing else planted. */
function expectOnlyOwnKey(name: string, requests: IncomingHttpHeaders[], own: string) {
  expect(requests.length, `${name} got no request`).toBeGreaterThan(0);
  for (const headers of requests) {
    expect(headers.authorization, name).toBe(`Bearer ${own}`);
    expect(headers["api-key"], name).toBeUndefined();
    const values = headerValues(headers).join("\n");
    for (const planted of ALL_PLANTED.filter((p) => p !== own)) expect(values, `${name} must not see ${planted}`).not.toContain(planted);
    expect(values).not.toMatch(/openai-organization|openai-project|x-planted-custom/i);
  }
}

function expectNoKeyInOutputs(runDir: string, console: string[]) {
  const texts = [...outputTexts(runDir), ...console.map((text) => ({ file: "console", text }))];
  expect(texts.length).toBeGreaterThan(4);
  for (const { file, text } of texts) for (const planted of ALL_PLANTED) expect(text, `${file} holds ${planted}`).not.toContain(planted);
}

describe("a custom Live endpoint with offline caller speech", () => {
  it("crashlab run --endpoint URL --endpoint-api-key-env NAME: espeak-ng speaks, the server gets exactly that key, nothing goes anywhere else", async () => {
    const scenario = PLAN.cases.find((c) => c.id === "harbor_001")!.scenario;
    const { server, upgrades } = await liveServer({ key: KEYS.LIVE_KEY });
    // The stand-in cannot recognize speech: it is told the words of the espeak-ng audio the run will send
    // (the same engine and voice, so the same samples), as the harness tells the offline simulator.
    const espeak = await new EspeakSynthesizer({ voice: DEFAULT_CALLER_VOICE }).synthesize(scenario.input.text);
    server.registerCallerAudio(pcm16ToBytes(espeak.samples), scenario.input.text);
    const out = mkdtempSync(join(tmpdir(), "endpoint-espeak-"));
    const r = await cli(["run", "--endpoint", server.url, "--endpoint-api-key-env", "LIVE_KEY", "--example", "harbor_001", "--results-dir", out], KEYS);
    expect(r.code, r.stderr).toBe(0);

    expectOnlyOwnKey("the Live server", upgrades, KEYS.LIVE_KEY);
    expect(server.stats.unauthorized).toBe(0);
    expect(trap.seen).toEqual([]);
    const doc = ResultsFile.parse(JSON.parse(readFileSync(join(runFolder(out), "results.json"), "utf8")));
    const trial = doc.trials[0]!;
    expect(trial.status).toBe("passed");
    // Offline caller speech, against the remote endpoint, in real time; provenance names sources, never keys.
    expect(trial.input).toMatchObject({ kind: "synthetic", speech: { provider: "espeak-ng" } });
    expect(trial.input.speech?.endpoint).toBeUndefined();
    expect(doc.run.target_descriptor).toMatchObject({ endpoint: server.url, settings: { mode: "live", credentials: { live: "env:LIVE_KEY", responses: "none" } } });
    expect(doc.run.real_time).toBe(true);
    expect(server.stats.sessions[0]!.recognized).toEqual([scenario.input.text]);
    expectNoKeyInOutputs(runFolder(out), [r.stdout, r.stderr]);
  });

  it("resolves each service on its own: flags, then the PLAN's defaults.services, never one service's key for another", () => {
    const env = { ...KEYS };
    const resolveWith = (argv: string[], services?: object) => engineFor(argv, services ? { services } : {}, env);
    // Only --endpoint: the target is remote, everything else stays offline and keyless.
    const one = resolveWith(["--endpoint", "ws://127.0.0.1:9/v1/live/sessions", "--endpoint-api-key-env", "LIVE_KEY"]);
    expect(one.target_settings).toMatchObject({ mode: "live", api_key: KEYS.LIVE_KEY, client_backend: "policy", credentials: { live: "env:LIVE_KEY", responses: "none" } });
    expect(one.target_settings!.responses_api_key).toBeUndefined();
    expect(one.services.speech).toEqual({ provider: "espeak" });
    expect(one.services.caller).toEqual({ kind: "offline" });
    expect(one.real_time).toBe(true);
    // The PLAN names endpoints and key variables; a flag overrides the endpoint and its key together.
    const planned = { live: { endpoint: "wss://plan.example/v1/live/sessions", api_key_env: "RESP_KEY" }, speech: { provider: "openai", endpoint: "https://speech.example/v1", api_key_env: "SPEECH_KEY" } };
    const fromPlan = resolveWith([], planned);
    expect(fromPlan.target_settings).toMatchObject({ endpoint: "wss://plan.example/v1/live/sessions", api_key: KEYS.RESP_KEY, credentials: { live: "env:RESP_KEY" } });
    expect(fromPlan.services.speech).toMatchObject({ provider: "openai", endpoint: "https://speech.example/v1", key: KEYS.SPEECH_KEY, credential: "env:SPEECH_KEY" });
    const overridden = resolveWith(["--endpoint", "wss://flag.example/v1/live/sessions"], planned);
    expect(overridden.target_settings!.endpoint).toBe("wss://flag.example/v1/live/sessions");
    // The PLAN's key is not sent to the endpoint the command line chose.
    expect(overridden.target_settings!.api_key).toBeUndefined();
    expect(overridden.target_settings!.credentials!.live).toBe("none");
    // --live: OpenAI's own services with OPENAI_API_KEY, except where an endpoint is named.
    const live = resolveWith(["--live", "--responses-endpoint", "http://127.0.0.1:9/v1", "--responses-api-key-env", "RESP_KEY"]);
    expect(live.target_settings).toMatchObject({ mode: "live", api_key: KEYS.OPENAI_API_KEY, responses_api_key: KEYS.RESP_KEY, responses_base_url: "http://127.0.0.1:9/v1", credentials: { live: "OPENAI_API_KEY", responses: "env:RESP_KEY" } });
    expect(live.services.speech).toMatchObject({ provider: "openai", key: KEYS.OPENAI_API_KEY, credential: "OPENAI_API_KEY" });
    expect(live.services.caller).toMatchObject({ kind: "live", key: KEYS.OPENAI_API_KEY });
    // --speech cache replays OpenAI speech with no key and no endpoint.
    expect(resolveWith(["--speech", "cache"]).services.speech).toEqual({ provider: "cache" });
  });

  it("--speech cache replays only what is cached: a line never synthesized is an infrastructure error naming it, with no request anywhere", async () => {
    const out = mkdtempSync(join(tmpdir(), "endpoint-cache-"));
    const r = await cli(["run", "--example", "harbor_001", "--speech", "cache", "--tts-model", "crashlab-never-cached", "--results-dir", out, "--quiet"], KEYS);
    expect(r.code, r.stderr).toBe(3);
    const doc = ResultsFile.parse(JSON.parse(readFileSync(join(runFolder(out), "results.json"), "utf8")));
    expect(doc.trials[0]!.status).toBe("infrastructure_error");
    expect(doc.trials[0]!.error).toMatchObject({ stage: "speech" });
    expect(doc.trials[0]!.error!.message).toMatch(/"I'd like to book a table for two under Maya.*" is not in the speech cache for model crashlab-never-cached, voice coral/);
    expect(trap.seen).toEqual([]);
  });

  it.each([
    [["--responses-api-key-env", "RESP_KEY"], /--responses-api-key-env names the key for a custom endpoint \(--responses-endpoint\)/],
    [["--speech", "espeak", "--speech-endpoint", "http://127.0.0.1:9/v1"], /applies to --speech openai/],
    [["--speech", "tape"], /--speech takes one of espeak, openai, cache/],
    [["--caller-endpoint", "http://127.0.0.1:9/v1/live/sessions"], /--caller-endpoint takes a ws:\/\/ or wss:\/\/ URL/],
    [["--completion-endpoint", "http://127.0.0.1:9/v1"], /--completion-endpoint applies to a live simulated caller/],
    [["--speech", "openai"], /OpenAI caller speech needs OPENAI_API_KEY/],
    [["--endpoint", "ws://127.0.0.1:9/v1/live/sessions", "--endpoint-api-key-env", "NOT_SET_ANYWHERE"], /--endpoint-api-key-env NOT_SET_ANYWHERE: the environment variable NOT_SET_ANYWHERE is not set or empty/],
  ])("refuses %j before anything runs", async (argv, message) => {
    const r = await cli(["run", ...argv], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe("every service on its own endpoint with its own key, and no other key anywhere", () => {
  it("CRAWL, client delegation: Live, Responses, speech and judge each get exactly their key; the SDK's environment reaches none", async () => {
    const scenario = PLAN.cases.find((c) => c.id === "harbor_001")!.scenario;
    const { server: live, upgrades } = await liveServer({ key: KEYS.LIVE_KEY });
    const callerPcm = pcm16ToBytes(tone(scenario.input.text, 45, 11));
    live.registerCallerAudio(callerPcm, scenario.input.text);
    const responses = await recordingServer((req, n) => (req.url === "/v1/responses" ? bookingBackend(req, n) : NOT_FOUND));
    const speech = await recordingServer((req) => (req.url === "/v1/audio/speech" ? { status: 200, bytes: callerPcm, contentType: "audio/pcm" } : NOT_FOUND));
    const judge = await recordingServer((req: SeenHttp) =>
      req.url === "/v1/responses"
        ? { status: 200, json: verdict({ verdict: "pass", severity_score: 1, rationale: "Holds.", cited_evidence_ids: ["utt.assistant.1"], ...(clauseOf(req.body!) === "task_understanding" ? { task_completed: true } : {}) }) }
        : NOT_FOUND,
    );
    closers.push(responses, speech, judge);
    const out = mkdtempSync(join(tmpdir(), "endpoint-all-"));
    // --refresh-audio makes the speech request happen even when an earlier run cached the line; the model
    // name is the test's own, so the tone stand-in's audio is never taken for real OpenAI speech.
    const argv = [
      "run", "--example", "harbor_001", "--assistant", "client", "--results-dir", out, "--refresh-audio", "--tts-model", "crashlab-test-tone",
      "--endpoint", live.url, "--endpoint-api-key-env", "LIVE_KEY",
      "--responses-endpoint", `${responses.origin}/v1`, "--responses-api-key-env", "RESP_KEY",
      "--speech", "openai", "--speech-endpoint", `${speech.origin}/v1`, "--speech-api-key-env", "SPEECH_KEY",
      "--judge", "--judge-endpoint", `${judge.origin}/v1`, "--judge-api-key-env", "JUDGE_KEY",
    ];
    const r = await cli(argv, KEYS);
    expect(r.code, r.stderr).toBe(0);

    expectOnlyOwnKey("the Live server", upgrades, KEYS.LIVE_KEY);
    expectOnlyOwnKey("the Responses server", responses.seen.map((s) => s.headers), KEYS.RESP_KEY);
    expectOnlyOwnKey("the speech server", speech.seen.map((s) => s.headers), KEYS.SPEECH_KEY);
    expectOnlyOwnKey("the judge", judge.seen.map((s) => s.headers), KEYS.JUDGE_KEY);
    expect(trap.seen).toEqual([]);
    // Each service did its part: the backend was asked twice (the call, then its result), speech once.
    expect(responses.seen.map((s) => s.url)).toEqual(["/v1/responses", "/v1/responses"]);
    expect(speech.seen.map((s) => [s.url, s.body?.input])).toEqual([["/v1/audio/speech", scenario.input.text]]);

    const doc = ResultsFile.parse(JSON.parse(readFileSync(join(runFolder(out), "results.json"), "utf8")));
    const trial = doc.trials[0]!;
    expect(trial.status).toBe("passed");
    const detail = transcriptOf(out, trial.trial_id);
    expect(detail.tool_executions.map((t) => [t.name, t.status])).toEqual([["create_reservation", "completed"]]);
    expect(detail.delegations.map((d) => d.target)).toEqual(["client"]);
    // Provenance: every service's endpoint and where its key came from, never the key.
    expect(doc.run.target_descriptor).toMatchObject({ endpoint: live.url, settings: { credentials: { live: "env:LIVE_KEY", responses: "env:RESP_KEY" }, responses_endpoint: `${responses.origin}/v1` } });
    expect(trial.input.speech).toMatchObject({ provider: "openai", endpoint: `${speech.origin}/v1`, credential: "env:SPEECH_KEY" });
    const judged = trial.assessments.find((a) => a.verifier === "semantic.task_understanding")!;
    expect(judged.judge!.settings).toMatchObject({ endpoint: `${judge.origin}/v1`, credential: "env:JUDGE_KEY" });
    expectNoKeyInOutputs(runFolder(out), [r.stdout, r.stderr]);
  });

  it("RUN: the simulated caller's Live session and its completion observer each get their own key", async () => {
    const caseId = "run_missing_name";
    const scenario = PLAN.cases.find((c) => c.id === caseId)!.scenario;
    const bridge = transcriptBridge();
    const { server: target, upgrades: targetUpgrades } = await liveServer({ key: KEYS.LIVE_KEY, bridge: bridge.a });
    const { server: caller, upgrades: callerUpgrades } = await liveServer({ key: KEYS.CALLER_KEY, bridge: bridge.b, policy: agendaCallerPolicy(callerScript(scenario, "caller", RESTAURANT)), pitch: 300 });
    const completion = await recordingServer((req, n) => {
      if (req.url !== "/v1/responses") return NOT_FOUND;
      const content = String((req.body!.input as Array<{ content: string }>)[0]!.content);
      const over = content.split("\n").some((l) => l.startsWith("CALLER:") && /bye\b/i.test(l));
      return { status: 200, json: responseBody(`resp_o${n}`, [textOutput(`o${n}`, JSON.stringify(over ? { should_drain: true, outcome: "resolved", reason: "Booked; the caller said goodbye." } : { should_drain: false, outcome: "unresolved", reason: "Still arranging." }))]) };
    });
    closers.push(completion);
    const out = mkdtempSync(join(tmpdir(), "endpoint-run-"));
    const r = await cli(
      [
        "run", "--scenario", caseId, "--assistant", "responses", "--results-dir", out, "--max-duration-seconds", "40",
        "--endpoint", target.url, "--endpoint-api-key-env", "LIVE_KEY",
        "--caller-endpoint", caller.url, "--caller-api-key-env", "CALLER_KEY",
        "--completion-endpoint", `${completion.origin}/v1`, "--completion-api-key-env", "COMPLETION_KEY",
      ],
      KEYS,
    );
    expect(r.code, r.stderr).toBe(0);
    expectOnlyOwnKey("the target's Live server", targetUpgrades, KEYS.LIVE_KEY);
    expectOnlyOwnKey("the caller's Live server", callerUpgrades, KEYS.CALLER_KEY);
    expectOnlyOwnKey("the completion observer's server", completion.seen.map((s) => s.headers), KEYS.COMPLETION_KEY);
    expect(trap.seen).toEqual([]);
    const doc = ResultsFile.parse(JSON.parse(readFileSync(join(runFolder(out), "results.json"), "utf8")));
    const trial = doc.trials[0]!;
    expect(trial.status).toBe("passed");
    expect(transcriptOf(out, trial.trial_id).conversation!.completion).toMatchObject({ by: "observer", outcome: "resolved" });
    expect(trial.input).toMatchObject({ kind: "simulated", caller: { kind: "live", endpoint: caller.url, credential: "env:CALLER_KEY", completion: { endpoint: `${completion.origin}/v1`, credential: "env:COMPLETION_KEY" } } });
    expect(doc.run.target_descriptor).toMatchObject({ endpoint: target.url, settings: { credentials: { live: "env:LIVE_KEY" } } });
    expectNoKeyInOutputs(runFolder(out), [r.stdout, r.stderr]);
  });
});
