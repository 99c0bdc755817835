import { gunzipSync } from "node:zlib";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { ResultsFile } from "../src/core/record/results";
import { PLAN } from "../crashlab/evaluations";
import { resolveRun, trialContext } from "../src/core/run/run";
import { resultsRow } from "../src/core/report/results";
import { lostTrial } from "../src/core/trial/lost";

/**
 * Offline runs above --concurrency 1 run their trials in worker threads (the CLI is given the worker
 * entry; from the sources it is src/worker.ts, loaded through tsx). What they write is what one thread
 * writes: every per-trial artifact byte for byte, and results.json, junit.xml and the journal once the
 * run id, the concurrency setting and the wall-clock stamps are set aside.
 */
const repo = resolve(import.meta.dirname, "..");
const workers = new URL("../src/worker.ts", import.meta.url);

async function cli(argv: string[], cwd = repo) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, alpha: alpha as Record<string, unknown>, env: {}, workers });
  return { code, stdout, stderr };
}

const folder = (out: string) => join(out, readdirSync(out)[0]!);

/** Every file under a folder, by its path inside it. */
function files(dir: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else found.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return found;
}

/** results.json without what the run id, the concurrency setting and the wall clock decide. */
function results(text: string) {
  const r = ResultsFile.parse(JSON.parse(text));
  const { run_id: _id, started_at: _s, finished_at: _f, concurrency: _c, ...run } = r.run;
  return { ...r, run, trials: r.trials.map(({ started_at: _t, wall_ms: _w, ...t }) => t) };
}

/** The journal's lines, each without its wall-clock stamps, in trial order (lines land as trials finish). */
function journal(text: string) {
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const { started_at: _s, wall_ms: _w, ...row } = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify(row);
    })
    .sort();
}

/** junit.xml with the run id and the wall-clock durations replaced. */
const junit = (text: string) => text.replace(/name="crashlab [^"]+"/, 'name="crashlab RUN"').replace(/ time="[^"]*"/g, ' time="T"');

describe("trial worker threads", () => {
  it("write records and artifacts byte-identical to one thread's, for CRAWL, WALK and RUN cases", async () => {
    const args = ["run", "--example", "harbor_001", "--example", "harbor_009_clean", "--example", "run_missing_name", "--repetitions", "2", "--seed", "11", "--artifacts", "all"];
    const one = mkdtempSync(join(tmpdir(), "workers-one-"));
    const two = mkdtempSync(join(tmpdir(), "workers-two-"));
    const a = await cli([...args, "--concurrency", "1", "--results-dir", one]);
    const b = await cli([...args, "--concurrency", "2", "--results-dir", two]);
    expect(a.stderr).toMatch(/6 trial\(s\) of 3 case\(s\), target restaurant, seed 11, virtual time → /);
    expect(b.stderr).toMatch(/6 trial\(s\) of 3 case\(s\), target restaurant, seed 11, virtual time, 2 worker threads → /);
    // Progress lines come from the main thread either way (in the order trials finish).
    const progress = (s: string) => [...s.matchAll(/^\[\s*\d\/6\] (\S+)\s+(\S+)/gm)].map((m) => `${m[2]} ${m[1]}`).sort();
    expect(progress(b.stderr)).toEqual(progress(a.stderr));
    expect(progress(a.stderr)).toHaveLength(6);
    expect(b.code).toBe(a.code);
    const fa = files(folder(one));
    const fb = files(folder(two));
    expect([...fb.keys()].sort()).toEqual([...fa.keys()].sort());
    // Six trials, each with its events, transcripts and (CRAWL, WALK, RUN alike) conversation audio.
    const perTrial = [...fa.keys()].filter((k) => /^(events|transcripts|audio)\//.test(k));
    expect(perTrial.filter((k) => k.startsWith("events/"))).toHaveLength(6);
    expect(perTrial.filter((k) => k.endsWith("conversation.wav"))).toHaveLength(6);
    for (const k of perTrial) expect(fb.get(k)!.equals(fa.get(k)!), k).toBe(true);
    // The events really are the trials' (not empty files that would compare equal anyway).
    expect(gunzipSync(fa.get(perTrial.find((k) => k.startsWith("events/"))!)!).toString()).toContain('"trial.started"');

    const ra = results(fa.get("results.json")!.toString());
    const rb = results(fb.get("results.json")!.toString());
    expect(rb).toEqual(ra);
    expect(JSON.stringify(rb)).toBe(JSON.stringify(ra));
    expect(new Set(ra.trials.map((t) => t.case_kind))).toEqual(new Set(["crawl", "walk", "run"]));
    expect(JSON.parse(fb.get("results.json")!.toString()).run.concurrency).toBe(2);
    expect(junit(fb.get("junit.xml")!.toString())).toBe(junit(fa.get("junit.xml")!.toString()));
    expect(journal(fb.get("trials.jsonl")!.toString())).toEqual(journal(fa.get("trials.jsonl")!.toString()));
  });

  it("records the trials of a worker that crashed as infrastructure errors, replaces it, and finishes the run", async () => {
    const out = mkdtempSync(join(tmpdir(), "workers-crash-"));
    const run = await cli(["run", "--package", "test/fixtures/workers/crash", "--repetitions", "2", "--concurrency", "2", "--results-dir", out]);
    expect(run.code).toBe(3);
    const r = ResultsFile.parse(JSON.parse(readFileSync(join(folder(out), "results.json"), "utf8")));
    expect(r.run.interrupted).toBe(false);
    expect(r.trials.map((t) => t.trial_id).sort()).toEqual(["harbor_001#1", "harbor_001#2", "harbor_008#1", "harbor_008#2"]);
    const crashed = r.trials.find((t) => t.trial_id === "harbor_008#1")!;
    expect(crashed.status).toBe("infrastructure_error");
    expect(crashed.error).toEqual({ stage: "worker", message: "the worker thread running this trial stopped: the target crashed its thread" });
    // The other trials ran to their own outcome (the replacement worker ran what was left).
    for (const t of r.trials.filter((t) => t !== crashed)) expect(t.status, t.trial_id).not.toBe("infrastructure_error");
    expect(run.stderr).toMatch(/ERROR harbor_008#1 — worker: the worker thread running this trial stopped: the target crashed its thread/);
    expect(existsSync(join(folder(out), "report.html"))).toBe(true);
  });

  it("refuses, before any folder exists, a package that loads in the main thread but not in a worker", async () => {
    const out = mkdtempSync(join(tmpdir(), "workers-load-"));
    const run = await cli(["run", "--package", "test/fixtures/workers/main-only", "--concurrency", "2", "--results-dir", out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^crashlab: \S+test\/fixtures\/workers\/main-only\/evaluations\.ts loads in the main thread but not in a worker thread \(.*this package needs the main thread.*\)\. .*--concurrency 1/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(out)).toEqual([]);
    // In one thread it runs.
    expect((await cli(["run", "--package", "test/fixtures/workers/main-only", "--concurrency", "1", "--results-dir", out, "--quiet"])).code).not.toBe(2);
  });

  it("gives a lost trial of any kind (CRAWL, WALK, RUN) a full record: infrastructure_error at its stage, a valid results row", async () => {
    const resolved = resolveRun(PLAN, { selection: { ids: ["harbor_001", "harbor_009_clean", "run_missing_name"] } });
    expect(resolved.trials.map((t) => t.case.kind)).toEqual(["crawl", "walk", "run"]);
    for (const spec of resolved.trials) {
      const { record, media } = await lostTrial(trialContext(PLAN, {}, resolved, spec, { commit: null, dirty: null }), "worker", "the worker thread running this trial stopped: out of memory");
      expect(record.status, spec.trial_id).toBe("infrastructure_error");
      expect(record.error).toEqual({ stage: "worker", message: "the worker thread running this trial stopped: out of memory" });
      expect(record.case_kind).toBe(spec.case.kind);
      expect(record.seed).toBe(spec.seed);
      expect(record.turns).toEqual([]);
      expect(media).toBeNull();
      // Its row is what the journal holds: it validates against the results schema.
      expect(resultsRow(record, spec.case.tags)).toMatchObject({ trial_id: spec.trial_id, status: "infrastructure_error", error: { stage: "worker" } });
    }
  });
});
