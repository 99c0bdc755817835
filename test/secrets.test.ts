import { gunzipSync } from "node:zlib";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { isOpenAIHost } from "../src/core/services/credentials";
import { cli, runFolder } from "./cli-harness";
import { engineFor } from "./settings-harness";
import { LiveClient } from "../src/core/live/client";
import { ResultsFile } from "../src/core/record/results";
import { clauseOf, startJudgeServer, verdict, type JudgeServer } from "./judge-fixtures";
import { unpackTrial } from "../src/core/report/html";

/**
 * Keys are scoped per service and never appear in any output; endpoint
 * URLs that cannot work are refused; the judge's timeout and retries are the user's to set.
 */
const OPENAI_KEY = "sk-planted-openai-key-0123456789abcdef";
const JUDGE_KEY = "sk-planted-judge-key-fedcba9876543210";
const GATEWAY_KEY = "gw-planted-gateway-key-5555aaaa";

let server: JudgeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function everyFile(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? everyFile(join(dir, name)) : [join(dir, name)]));
}

const passing = (body: Record<string, unknown>) => ({
  status: 200,
  json: verdict({ verdict: "pass", severity_score: 1, rationale: "Holds.", cited_evidence_ids: ["utt.assistant.1"], ...(clauseOf(body) === "task_understanding" ? { task_completed: true } : {}) }),
});

describe("OPENAI_API_KEY goes only to OpenAI's own hosts", () => {
  it("a custom judge endpoint gets no key at all unless one is named for it", async () => {
    server = await startJudgeServer(passing);
    const out = mkdtempSync(join(tmpdir(), "key-judge-"));
    const r = await cli(["run", "--target", "text_restaurant", "--example", "harbor_003", "--judge", "--judge-endpoint", server.endpoint, "--results-dir", out, "--quiet"], { OPENAI_API_KEY: OPENAI_KEY });
    expect(r.code).toBe(0);
    expect(server.seen.length).toBeGreaterThan(0);
    expect(server.seen.map((s) => s.auth)).toEqual(server.seen.map(() => undefined));
    const doc = ResultsFile.parse(JSON.parse(readFileSync(join(runFolder(out), "results.json"), "utf8")));
    expect(doc.trials[0]!.assessments.find((a) => a.verifier === "semantic.task_understanding")!.judge!.settings.credential).toBe("none");
  });

  it("--judge-api-key-env NAME sends exactly that key to the judge, and records only its source", async () => {
    server = await startJudgeServer(passing);
    const out = mkdtempSync(join(tmpdir(), "key-judge-named-"));
    const r = await cli(["run", "--target", "text_restaurant", "--example", "harbor_003", "--judge", "--judge-endpoint", server.endpoint, "--judge-api-key-env", "MY_JUDGE_KEY", "--results-dir", out, "--quiet"], {
      OPENAI_API_KEY: OPENAI_KEY,
      MY_JUDGE_KEY: JUDGE_KEY,
    });
    expect(r.code).toBe(0);
    expect(new Set(server.seen.map((s) => s.auth))).toEqual(new Set([`Bearer ${JUDGE_KEY}`]));
    const doc = ResultsFile.parse(JSON.parse(readFileSync(join(runFolder(out), "results.json"), "utf8")));
    expect(doc.trials[0]!.assessments.find((a) => a.verifier === "semantic.task_understanding")!.judge!.settings.credential).toBe("env:MY_JUDGE_KEY");
  });

  it("a named key that is not set is a usage error, not an empty credential", async () => {
    const r = await cli(["run", "--judge", "--judge-endpoint", "http://127.0.0.1:9/v1", "--judge-api-key-env", "NOT_SET_ANYWHERE"], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--judge-api-key-env NOT_SET_ANYWHERE: the environment variable NOT_SET_ANYWHERE is not set or empty/);
  });

  it("resolves the Live endpoint's key per endpoint: OpenAI's host gets OPENAI_API_KEY, a gateway only its named key", () => {
    const env = { OPENAI_API_KEY: OPENAI_KEY, GW_KEY: GATEWAY_KEY };
    const resolveWith = (...argv: string[]) => engineFor(argv, {}, env).target_settings!;
    expect(resolveWith("--live")).toMatchObject({ api_key: OPENAI_KEY, responses_api_key: OPENAI_KEY, credentials: { live: "OPENAI_API_KEY", responses: "OPENAI_API_KEY" } });
    const gateway = resolveWith("--live", "--endpoint", "wss://gateway.example.com/v1/live/sessions");
    expect(gateway.api_key).toBeUndefined();
    expect(gateway.credentials).toEqual({ live: "none", responses: "OPENAI_API_KEY" });
    expect(resolveWith("--live", "--endpoint", "wss://gateway.example.com/live", "--endpoint-api-key-env", "GW_KEY")).toMatchObject({ api_key: GATEWAY_KEY, credentials: { live: "env:GW_KEY" } });
    // Offline, OPENAI_API_KEY is never sent anywhere.
    const offline = resolveWith("--endpoint", "ws://127.0.0.1:9/v1/live/sessions");
    expect(offline.api_key).toBeUndefined();
    expect(offline.responses_api_key).toBeUndefined();
    // Look-alike hosts are not OpenAI's.
    expect(isOpenAIHost("wss://api.openai.com/v1/live/sessions")).toBe(true);
    expect(isOpenAIHost("https://api.openai.com.evil.example/v1")).toBe(false);
    expect(isOpenAIHost("https://evilopenai.com/v1")).toBe(false);
  });

  it("the GPT-Live client sends no Authorization header when no key is named for a custom endpoint", async () => {
    const headers: Array<string | undefined> = [];
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    wss.on("connection", (socket, req: IncomingMessage) => {
      headers.push(req.headers.authorization);
      socket.close(1008, "no");
    });
    await new Promise((r) => wss.once("listening", r));
    const url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}/v1/live/sessions`;
    for (const apiKey of [null, GATEWAY_KEY]) {
      const client = new LiveClient();
      await client.connect({ url, apiKey, session: { model: "gpt-live-1" } as never, startTimeoutMs: 2000 }).catch(() => undefined);
    }
    await new Promise<void>((r) => wss.close(() => r()));
    expect(headers).toEqual([undefined, `Bearer ${GATEWAY_KEY}`]);
  });
});

describe("a planted key appears in no output", () => {
  it("a judge that echoes the key in its errors leaves no trace of it in any file or on the console", async () => {
    // The judge rejects every call, echoing the key it was given, as some providers do.
    server = await startJudgeServer(() => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${JUDGE_KEY}. Also seen: ${OPENAI_KEY}`, type: "invalid_request_error", code: "invalid_api_key" } } }));
    const out = mkdtempSync(join(tmpdir(), "key-planted-"));
    const r = await cli(
      ["run", "--example", "harbor_003", "--judge", "--judge-endpoint", server.endpoint, "--judge-api-key-env", "MY_JUDGE_KEY", "--require", "semantic.task_understanding", "--judge-retries", "0", "--results-dir", out, "--verbose", "--json"],
      { OPENAI_API_KEY: OPENAI_KEY, MY_JUDGE_KEY: JUDGE_KEY },
    );
    expect(r.code).toBe(1);
    const files = everyFile(runFolder(out)).filter((f) => !f.endsWith(".wav"));
    expect(files.map((f) => f.slice(runFolder(out).length + 1)).sort()).toEqual(
      expect.arrayContaining(["results.json", "report.html", "junit.xml", "events/harbor_003.r1.jsonl.gz", "trials.jsonl", "transcripts/harbor_003.r1.json", "audio/harbor_003.r1/conversation.transcript.txt"]),
    );
    // report.html packs each trial's details (gzip, base64): they are read unpacked too.
    const unpacked = (text: string) => [text, ...[...text.matchAll(/<script type="application\/x-crashlab-trial" id="trial-\d+">([^<]*)<\/script>/g)].map((m) => unpackTrial(m[1]!))];
    // Events are gzipped: read unzipped, so a key inside them would be seen.
    const read = (f: string) => (f.endsWith(".gz") ? gunzipSync(readFileSync(f)).toString("utf8") : readFileSync(f, "utf8"));
    const texts = [...files.flatMap((f) => unpacked(read(f))), r.stdout, r.stderr];
    expect(texts.length).toBeGreaterThan(files.length + 2);
    for (const text of texts) {
      expect(text).not.toContain(JUDGE_KEY);
      expect(text).not.toContain(OPENAI_KEY);
      expect(text).not.toContain(JUDGE_KEY.slice(-12));
    }
    // Not vacuous: the echo did reach the outputs, redacted.
    const results = readFileSync(join(runFolder(out), "results.json"), "utf8");
    expect(results).toContain("Incorrect API key provided: [REDACTED]");
    expect(readFileSync(join(runFolder(out), "junit.xml"), "utf8")).toContain("[REDACTED]");
    expect(unpacked(readFileSync(join(runFolder(out), "report.html"), "utf8"))[1]).toContain("Incorrect API key provided: [REDACTED]");
    expect(r.stderr).toContain("[REDACTED]");
  });
});

describe("endpoint URLs with credentials or a query string are refused", () => {
  it.each([
    [["--endpoint", "ws://user:pw@127.0.0.1:9/v1/live/sessions"], /--endpoint must not carry credentials in the URL .*--endpoint-api-key-env NAME/],
    [["--endpoint", "wss://gateway.example.com/live?key=abc"], /--endpoint must not have a query string or fragment/],
    [["--endpoint", "https://gateway.example.com/live"], /--endpoint takes a ws:\/\/ or wss:\/\/ URL/],
    [["--judge", "--judge-endpoint", "http://user:pw@127.0.0.1:9/v1"], /--judge-endpoint must not carry credentials in the URL .*--judge-api-key-env NAME/],
    [["--judge", "--judge-endpoint", "http://127.0.0.1:9/v1?api-version=1"], /--judge-endpoint must not have a query string/],
  ])("refuses %j", async (argv, message) => {
    const r = await cli(["run", ...argv], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain("pw@");
  });
});

describe("the judge's timeout and retries are set by the user and recorded", () => {
  it("--judge-timeout-seconds and --judge-retries shorten a stalled judge, and provenance says so", async () => {
    server = await startJudgeServer(() => "hang");
    const out = mkdtempSync(join(tmpdir(), "judge-timeout-"));
    const r = await cli(["run", "--target", "text_restaurant", "--example", "harbor_003", "--judge", "--judge-endpoint", server.endpoint, "--judge-timeout-seconds", "0.5", "--judge-retries", "0", "--results-dir", out, "--quiet"], {});
    expect(r.code).toBe(0);
    const doc = ResultsFile.parse(JSON.parse(readFileSync(join(runFolder(out), "results.json"), "utf8")));
    const tu = doc.trials[0]!.assessments.find((a) => a.verifier === "semantic.task_understanding")!;
    expect(tu.status).toBe("inconclusive");
    expect(tu.judge!.reason).toBe("timeout");
    expect(tu.judge!.settings).toMatchObject({ timeout_ms: 500, max_retries: 0 });
    // One request per applicable clause, none retried.
    expect(server.seen).toHaveLength(3);
  });

  it.each([["--judge-timeout-seconds", ""], ["--judge-timeout-seconds", "-1"], ["--judge-timeout-seconds", "NaN"], ["--judge-retries", "1.5"], ["--judge-retries", "11"]])("refuses %s %j", async (flag, value) => {
    const r = await cli(["run", "--judge", "--judge-endpoint", "http://127.0.0.1:9/v1", `${flag}=${value}`], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(flag);
  });
});
