import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { pcm16ToBytes } from "../src/core/audio/pcm";
import { cli } from "./cli-harness";
import { engineFor } from "./settings-harness";
import { startLiveSimulator } from "../src/core/simulator/server";
import { ResultsFile } from "../src/core/record/results";
import { bookingBackend, NOT_FOUND, outputTexts, recordingServer, type RecordingServer } from "./endpoint-fixtures";
import { clauseOf, verdict } from "./judge-fixtures";
import { tone, toneSynthesizer } from "./live-helpers";

/**
 * Azure OpenAI. Each Azure service is stood in for by a loopback server at the paths
 * Azure documents — GPT-Live at `/openai/v1/live/sessions`, the Responses API at `/openai/v1/responses`,
 * speech in the dated deployment form `/openai/deployments/{deployment}/audio/speech?api-version=…` —
 * that accepts only its own key in the `api-key` header. The models are deployment names. docs/azure.md
 * walks through the same configuration against real Azure hosts.
 */
const KEYS = {
  OPENAI_API_KEY: "sk-planted-openai-azuretest-0000",
  AZURE_LIVE_KEY: "az-live-key-1111aaaa2222bbbb",
  AZURE_RESPONSES_KEY: "az-responses-key-3333cccc4444",
  AZURE_SPEECH_KEY: "az-speech-key-5555dddd6666eeee",
  AZURE_JUDGE_KEY: "az-judge-key-7777ffff8888gggg",
};
const API_VERSION = "2025-03-01-preview";

let closers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c.close();
});

/** Azure's key authentication: the key in `api-key`, and no Authorization header at all. */
function expectAzureKey(name: string, requests: IncomingHttpHeaders[], own: string) {
  expect(requests.length, `${name} got no request`).toBeGreaterThan(0);
  for (const headers of requests) {
    expect(headers["api-key"], name).toBe(own);
    expect(headers.authorization, name).toBeUndefined();
    const values = JSON.stringify(headers);
    for (const other of Object.values(KEYS).filter((k) => k !== own)) expect(values, `${name} must not see ${other}`).not.toContain(other);
  }
}

/** A loopback server that answers only requests carrying `key` in `api-key`, like Azure's key authentication. */
async function azureServer(key: string, route: (url: string) => boolean, answer: Parameters<typeof recordingServer>[0]): Promise<RecordingServer> {
  return recordingServer((request, n) => {
    if (request.headers["api-key"] !== key) return { status: 401, json: { error: { code: "401", message: "Access denied due to invalid subscription key or wrong API endpoint." } } };
    return route(request.url) ? answer(request, n) : NOT_FOUND;
  });
}

describe("Azure OpenAI — deployment URLs and api-key authentication", () => {
  it("a full Azure-shaped run: Live, Responses, speech and the judge each get their own key in api-key, at Azure's paths", async () => {
    const scenario = PLAN.cases.find((c) => c.id === "harbor_001")!.scenario;
    const upgrades: Array<{ headers: IncomingHttpHeaders; path: string }> = [];
    const frames: Array<Record<string, unknown>> = [];
    const live = await startLiveSimulator({
      policy: restaurantPolicy(),
      synthesizer: toneSynthesizer({ msPerChar: 6 }),
      apiKey: KEYS.AZURE_LIVE_KEY,
      keyHeader: "api-key",
      path: "/openai/v1/live/sessions",
      models: ["my-gpt-live"],
      onUpgrade: (headers, path) => upgrades.push({ headers, path }),
      tap: (frame) => frames.push(JSON.parse(frame.text) as Record<string, unknown>),
    });
    closers.push(live);
    const callerPcm = pcm16ToBytes(tone(scenario.input.text, 45, 11));
    live.registerCallerAudio(callerPcm, scenario.input.text);
    const responses = await azureServer(KEYS.AZURE_RESPONSES_KEY, (url) => url === "/openai/v1/responses", bookingBackend);
    const speech = await azureServer(KEYS.AZURE_SPEECH_KEY, (url) => url === `/openai/deployments/caller-tts/audio/speech?api-version=${API_VERSION}`, () => ({ status: 200, bytes: callerPcm, contentType: "audio/pcm" }));
    const judge = await azureServer(KEYS.AZURE_JUDGE_KEY, (url) => url === "/openai/v1/responses", (req) => ({
      status: 200,
      json: verdict({ verdict: "pass", severity_score: 1, rationale: "Holds.", cited_evidence_ids: ["utt.assistant.1"], ...(clauseOf(req.body!) === "task_understanding" ? { task_completed: true } : {}) }),
    }));
    closers.push(responses, speech, judge);
    const out = mkdtempSync(join(tmpdir(), "azure-"));
    const r = await cli(
      [
        "run", "--example", "harbor_001", "--assistant", "client", "--results-dir", out, "--refresh-audio", "--azure",
        "--model", "my-gpt-live", "--backend-model", "my-terra", "--tts-model", "caller-tts",
        "--endpoint", live.url, "--endpoint-api-key-env", "AZURE_LIVE_KEY",
        "--responses-endpoint", `${responses.origin}/openai/v1`, "--responses-api-key-env", "AZURE_RESPONSES_KEY",
        "--speech", "openai", "--speech-endpoint", `${speech.origin}/openai/deployments/caller-tts?api-version=${API_VERSION}`, "--speech-api-key-env", "AZURE_SPEECH_KEY",
        "--judge", "--judge-endpoint", `${judge.origin}/openai/v1`, "--judge-api-key-env", "AZURE_JUDGE_KEY", "--judge-model", "my-judge",
      ],
      KEYS,
    );
    expect(r.code, r.stderr).toBe(0);

    expect(upgrades.map((u) => u.path)).toEqual(["/openai/v1/live/sessions"]);
    expectAzureKey("the Live server", upgrades.map((u) => u.headers), KEYS.AZURE_LIVE_KEY);
    expectAzureKey("the Responses server", responses.seen.map((s) => s.headers), KEYS.AZURE_RESPONSES_KEY);
    expectAzureKey("the speech server", speech.seen.map((s) => s.headers), KEYS.AZURE_SPEECH_KEY);
    expectAzureKey("the judge", judge.seen.map((s) => s.headers), KEYS.AZURE_JUDGE_KEY);
    // The deployment names travel as the models: in session.start, the Responses requests and the judge's.
    expect((frames[0] as { session: { model: string } }).session.model).toBe("my-gpt-live");
    expect(responses.seen.map((s) => [s.url, s.body?.model])).toEqual([["/openai/v1/responses", "my-terra"], ["/openai/v1/responses", "my-terra"]]);
    expect(speech.seen.map((s) => [s.method, s.url, s.body?.model, s.body?.input])).toEqual([["POST", `/openai/deployments/caller-tts/audio/speech?api-version=${API_VERSION}`, "caller-tts", scenario.input.text]]);
    expect(new Set(judge.seen.map((s) => s.body?.model))).toEqual(new Set(["my-judge"]));

    const runDir = join(out, readdirSync(out)[0]!);
    const doc = ResultsFile.parse(JSON.parse(readFileSync(join(runDir, "results.json"), "utf8")));
    const trial = doc.trials[0]!;
    expect(trial.status).toBe("passed");
    expect(doc.run.target_descriptor).toMatchObject({
      model: "my-gpt-live",
      backend_model: "my-terra",
      endpoint: live.url,
      settings: { credentials: { live: "env:AZURE_LIVE_KEY", responses: "env:AZURE_RESPONSES_KEY" }, key_headers: { live: "api-key", responses: "api-key" }, responses_endpoint: `${responses.origin}/openai/v1` },
    });
    // The speech endpoint is recorded without its query string; the key never is.
    expect(trial.input.speech).toMatchObject({ provider: "openai", model: "caller-tts", endpoint: `${speech.origin}/openai/deployments/caller-tts`, credential: "env:AZURE_SPEECH_KEY" });
    for (const { file, text } of [...outputTexts(runDir), { file: "console", text: r.stdout + r.stderr }])
      for (const key of Object.values(KEYS)) expect(text, `${file} holds ${key}`).not.toContain(key);
  });

  it("recognizes Azure hosts without --azure, allows only ?api-version=, and sends OPENAI_API_KEY to none of them", () => {
    const resolveWith = (...argv: string[]) => engineFor(argv, {}, KEYS);
    const azure = resolveWith(
      "--endpoint", "wss://my-resource.openai.azure.com/openai/v1/live/sessions", "--endpoint-api-key-env", "AZURE_LIVE_KEY",
      "--responses-endpoint", "https://my-resource.cognitiveservices.azure.com/openai/v1", "--responses-api-key-env", "AZURE_RESPONSES_KEY",
      "--speech", "openai", "--speech-endpoint", `https://my-resource.openai.azure.com/openai/deployments/caller-tts?api-version=${API_VERSION}`, "--speech-api-key-env", "AZURE_SPEECH_KEY",
      "--judge", "--judge-endpoint", "https://my-resource.services.ai.azure.com/openai/v1", "--judge-api-key-env", "AZURE_JUDGE_KEY",
    );
    expect(azure.target_settings).toMatchObject({ api_key: KEYS.AZURE_LIVE_KEY, api_key_header: "api-key", responses_api_key: KEYS.AZURE_RESPONSES_KEY, responses_api_key_header: "api-key" });
    expect(azure.services.speech).toMatchObject({ provider: "openai", key: KEYS.AZURE_SPEECH_KEY, header: "api-key" });
    expect(azure.judge).toMatchObject({ api_key: KEYS.AZURE_JUDGE_KEY, api_key_header: "api-key" });
    // Without named keys, Azure hosts get nothing: OPENAI_API_KEY is only ever OpenAI's.
    const keyless = resolveWith("--live", "--endpoint", "wss://my-resource.openai.azure.com/openai/v1/live/sessions", "--responses-endpoint", "https://my-resource.openai.azure.com/openai/v1");
    expect(keyless.target_settings!.api_key).toBeUndefined();
    expect(keyless.target_settings!.responses_api_key).toBeUndefined();
    expect(keyless.target_settings!.credentials).toEqual({ live: "none", responses: "none" });
    // A gateway that is not Azure keeps Bearer, and a query string there is refused unless --azure says it is Azure.
    expect(resolveWith("--endpoint", "wss://gateway.example.com/v1/live/sessions", "--endpoint-api-key-env", "AZURE_LIVE_KEY").target_settings!.api_key_header).toBeUndefined();
    expect(() => resolveWith("--responses-endpoint", "https://gateway.example.com/openai?api-version=1")).toThrow(/must not have a query string.*pass --azure/);
    expect(resolveWith("--azure", "--responses-endpoint", "https://gateway.example.com/openai?api-version=1").target_settings!.responses_base_url).toBe("https://gateway.example.com/openai?api-version=1");
    // Only api-version may ride along, once.
    expect(() => resolveWith("--azure", "--responses-endpoint", "https://gateway.example.com/openai?api-version=1&key=x")).toThrow(/Azure endpoints may carry only \?api-version=/);
  });
});
