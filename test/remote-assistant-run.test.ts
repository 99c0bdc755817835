/**
 * The whole path over loopback: `crashlab run` → the local GPT-Live simulator in client mode → the
 * restaurant served by `crashlab serve-assistant` over a real WebSocket with Bearer auth → its world. The
 * bundled evaluation (CRAWL, WALK and RUN) gives the same verdicts, trial by trial and check by check, as
 * crashlab's in-process client delegation, with the tool calls and state labelled as the target's reports;
 * a deliberate defect served the same way fails the same trials.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { cli, runFolder } from "./cli-harness";
import { recordingProxy, TOKEN } from "./remote-service-fixtures";

const repo = resolve(import.meta.dirname, "..");
const ENV = { OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN };

interface Served {
  url: string;
  stderr: () => string;
  stop: () => Promise<number>;
}

/** `crashlab serve-assistant` in this process, as the bin runs it, until stopped (its Ctrl-C). */
async function serveAssistant(args: string[] = []): Promise<Served> {
  const stop = new AbortController();
  let stderr = "";
  const exited = main(["serve-assistant", "--port", "0", ...args], { stdout: () => undefined, stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: ENV, signal: stop.signal });
  for (let i = 0; i < 600 && !/answering client delegations at (ws:\/\/\S+)/.test(stderr); i++) await new Promise((r) => setTimeout(r, 50));
  const url = /answering client delegations at (ws:\/\/\S+)/.exec(stderr)?.[1];
  if (!url) throw new Error(`serve-assistant did not start: ${stderr}`);
  return {
    url,
    stderr: () => stderr,
    stop: async () => {
      stop.abort("SIGINT");
      return exited;
    },
  };
}

interface Row {
  trial_id: string;
  status: string;
  checks: Array<{ id: string; status: string }>;
  assessments: Array<{ verifier: string; status: string }>;
  reported_evidence?: { by: string; initial_state: string };
}

/** A run's rows; in virtual time (`--no-real-time`, the seeds' form) unless `defaultTime`. */
async function runRows(args: string[], env: Record<string, string> = {}, defaultTime = false): Promise<{ code: number; rows: Row[]; dir: string }> {
  const out = mkdtempSync(join(tmpdir(), "remote-run-"));
  const time = defaultTime ? [] : ["--no-real-time"];
  const result = await cli(["run", "--assistant", "client", ...time, "--results-dir", out, "--quiet", ...args], env);
  const dir = runFolder(out);
  const rows = (JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as { trials: Row[] }).trials;
  return { code: result.code, rows, dir };
}

/** What a verdict is made of: the trial's status, each check's and each verifier's. */
const verdicts = (rows: Row[]) =>
  Object.fromEntries(rows.map((r) => [r.trial_id, { status: r.status, checks: Object.fromEntries(r.checks.map((c) => [c.id, c.status])), verifiers: Object.fromEntries(r.assessments.map((a) => [a.verifier, a.status])) }]));

describe("the bundled evaluation through crashlab serve-assistant", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveAssistant();
  });
  afterAll(async () => {
    expect(await served.stop()).toBe(0);
    expect(served.stderr()).toMatch(/crashlab serve-assistant: stopped\n$/);
    expect(served.stderr()).not.toContain(TOKEN);
  });

  it("gives the in-process client delegation's verdict on every CRAWL, WALK and RUN trial, and the service learns nothing evaluator-only", async () => {
    const local = await runRows([]);
    // Every message the evaluator sends the service, taken down on the way.
    const sent: string[] = [];
    const recorder = await recordingProxy(served.url, sent);
    const remote = await runRows(["--offline", "--assistant-endpoint", recorder.url], ENV).finally(() => recorder.close());
    const wire = sent.join("\n");
    expect(new Set(sent.map((t) => (JSON.parse(t) as { type: string }).type))).toEqual(new Set(["session.configure", "session.fixture", "live.event"]));
    for (const c of PLAN.cases) {
      const e = c.scenario.expected;
      const secrets = [e.answer, ...e.criteria, ...(e.golden_path?.steps ?? [])].filter((x): x is string => typeof x === "string" && x.length > 12);
      for (const secret of secrets) expect(wire, `${c.id}: ${secret}`).not.toContain(secret);
    }
    expect(wire).not.toContain('"expected"');
    expect(local.rows.length).toBe(72);
    expect(new Set(local.rows.map((r) => r.trial_id.split("_")[0]))).toEqual(new Set(["harbor", "run"]));
    expect(remote.rows.map((r) => r.trial_id)).toEqual(local.rows.map((r) => r.trial_id));
    expect(verdicts(remote.rows)).toEqual(verdicts(local.rows));
    expect(remote.code).toBe(local.code);
    expect(local.code).toBe(0);
    // Same verdicts, different witnesses: every remote trial's evidence is the service's report.
    for (const row of remote.rows) expect(row.reported_evidence).toMatchObject({ by: "target", initial_state: "applied" });
    for (const row of local.rows) expect(row.reported_evidence).toBeUndefined();
    const record = JSON.parse(readFileSync(join(remote.dir, "transcripts", "harbor_001.r1.json"), "utf8")) as { tool_executions: Array<{ reported_by?: string }>; world: { reported_by?: string } };
    expect(record.tool_executions.every((t) => t.reported_by === "target")).toBe(true);
    expect(record.world.reported_by).toBe("target");
    expect(readFileSync(join(remote.dir, "results.json"), "utf8") + readFileSync(join(remote.dir, "run.json"), "utf8")).not.toContain(TOKEN);
    // The seeds' layout: each kept trial's audio folder holds the caller audio sent and the assistant audio
    // captured; its transcripts file the reference transcript beside what the target heard.
    for (const [id, source] of [["harbor_001", "synthesized"], ["harbor_004_background_speech", "reviewed"], ["run_missing_name", "caller_lines"]] as const) {
      const key = `${id}.r1`;
      for (const file of ["conversation.wav", "input.wav", "output.wav"]) expect(existsSync(join(remote.dir, "audio", key, file)), `${key}/${file}`).toBe(true);
      const detail = JSON.parse(readFileSync(join(remote.dir, "transcripts", `${key}.json`), "utf8")) as { reference_transcript: { source: string; text: string; lines?: string[] }; heard_transcript: { text: string } };
      const scenario = PLAN.cases.find((c) => c.id === id)!.scenario;
      expect(detail.reference_transcript.source).toBe(source);
      if (source === "caller_lines") expect(detail.reference_transcript.lines!.length).toBeGreaterThan(1);
      else expect(detail.reference_transcript.text).toBe(scenario.input.text);
      // Offline the simulator is told the words of the exact audio it receives, so it heard the reference.
      expect(detail.heard_transcript.text.replace(/\s+/g, " ")).toBe(detail.reference_transcript.text.replace(/\s+/g, " "));
    }
  }, 600_000);

  it("runs in real time by default, the service's latency on the clock", async () => {
    const remote = await runRows(["--assistant-endpoint", served.url, "--example", "harbor_008"], ENV, true);
    expect(remote.rows.map((r) => [r.trial_id, r.status])).toEqual([["harbor_008#1", "passed"]]);
    expect(JSON.parse(readFileSync(join(remote.dir, "run.json"), "utf8")).settings).toMatchObject({ real_time: true, assistant_endpoint: served.url });
  }, 120_000);
});

describe("a deliberate defect served as the application", () => {
  it("fails the same trials, on the same checks, as the same defect in-process", async () => {
    const served = await serveAssistant(["--target", "faulty_double_books"]);
    try {
      const cases = ["harbor_001", "harbor_002", "harbor_008", "harbor_013"].flatMap((id) => ["--example", id]);
      const local = await runRows(["--target", "faulty_double_books", ...cases]);
      const remote = await runRows(["--target", "faulty_double_books", "--assistant-endpoint", served.url, ...cases], ENV);
      expect(verdicts(remote.rows)).toEqual(verdicts(local.rows));
      expect(local.rows.filter((r) => r.status === "failed").map((r) => r.trial_id)).toEqual(["harbor_001#1", "harbor_002#1"]);
      expect(remote.code).toBe(1);
    } finally {
      await served.stop();
    }
  }, 300_000);
});
