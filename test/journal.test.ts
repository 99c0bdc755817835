import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { indexJournal, JournalReader, JournalWriter, trimTornLine } from "../src/core/journal/journal";
import { orderedEntries, writeOutputsFromJournal } from "../src/core/report/from-journal";
import { buildRunReport } from "../src/core/report/run-folder";
import { buildResults, resultsRow, writeRunOutputs } from "../src/core/report/results";
import { run } from "../src/core/run/run";

/**
 * Streaming records: each finished trial is one journal line; results.json, junit.xml, the summary and
 * gates are rebuilt from the journal a row at a time and are exactly what the in-memory path writes.
 */
const repo = resolve(import.meta.dirname, "..");
const tmp = (name: string) => mkdtempSync(join(tmpdir(), `journal-${name}-`));

describe("the journal", () => {
  it("indexes whole lines, ignores a torn last line and cuts it off before the next append", () => {
    const file = join(tmp("lines"), "trials.jsonl");
    const writer = new JournalWriter(file);
    for (const [i, status] of ["passed", "failed", "passed"].entries()) writer.appendLine(JSON.stringify({ trial_id: `c${i}#1`, case_id: `c${i}`, status, note: "é ✓" }));
    writer.close();
    // A process killed mid-append leaves part of a line without its newline.
    appendFileSync(file, '{"trial_id":"c3#1","case_id":"c3","sta');
    const index = indexJournal(file);
    expect(index.entries.map((e) => [e.trial_id, e.status])).toEqual([
      ["c0#1", "passed"],
      ["c1#1", "failed"],
      ["c2#1", "passed"],
    ]);
    expect(index.torn_bytes).toBe('{"trial_id":"c3#1","case_id":"c3","sta'.length);
    const reader = new JournalReader(file);
    expect(reader.read(index.entries[1]!)).toEqual({ trial_id: "c1#1", case_id: "c1", status: "failed", note: "é ✓" });
    reader.close();
    trimTornLine(index);
    const again = new JournalWriter(file);
    again.appendLine(JSON.stringify({ trial_id: "c3#1", case_id: "c3", status: "passed" }));
    again.close();
    const after = indexJournal(file);
    expect(after.torn_bytes).toBe(0);
    expect(after.entries.map((e) => e.trial_id)).toEqual(["c0#1", "c1#1", "c2#1", "c3#1"]);
  });

  it("refuses a journal that holds one trial twice, and names a damaged line", () => {
    const dir = tmp("dup");
    const file = join(dir, "trials.jsonl");
    writeFileSync(file, ['{"trial_id":"a#1","case_id":"a","status":"passed"}', '{"trial_id":"a#1","case_id":"a","status":"failed"}', ""].join("\n"));
    expect(() => orderedEntries(file, ["a#1"])).toThrow(/holds trial a#1 twice/);
    writeFileSync(file, '{"trial_id":"a#1","case_id":"a","status":"passed"}\nnot json\n');
    expect(() => indexJournal(file)).toThrow(/line 2: not a JSON trial row/);
  });
});

describe("outputs built from the journal", () => {
  it("equal the in-memory results.json and junit.xml byte for byte, whatever order the trials finished in", async () => {
    const result = await run(PLAN, { target: "text_restaurant", repetitions: 3, concurrency: 3, seed: 5 });
    expect(result.records.length).toBeGreaterThan(40);
    const ctx = { concurrency: 3, real_time: false, package_digest: "sha256:test", target_descriptor: { kind: "test", instructions: "test", tools: [] }, limits: result.records[0]!.limits.config, case_tags: { [result.records[0]!.case_id]: ["first"] } };
    const memory = tmp("memory");
    const doc = buildResults(result, ctx);
    writeRunOutputs(memory, doc, result);

    const streamed = tmp("streamed");
    const journal = new JournalWriter(join(streamed, "trials.jsonl"));
    // Finished out of order, as concurrent trials do: reversed.
    for (const r of [...result.records].reverse()) journal.appendLine(JSON.stringify(resultsRow(r, ctx.case_tags[r.case_id] ?? [])));
    journal.close();
    const out = writeOutputsFromJournal(streamed, journal.path, result.records.map((r) => r.trial_id), result, result.interruption, ctx);
    expect(readFileSync(out.results, "utf8")).toBe(readFileSync(join(memory, "results.json"), "utf8"));
    expect(readFileSync(out.junit, "utf8")).toBe(readFileSync(join(memory, "junit.xml"), "utf8"));
    expect(out.summary).toEqual(result.summary);
    expect(out.gates).toEqual(result.gates);
    expect(out.finished).toBe(result.records.length);
  });

  it("a run that releases its records decides exactly as one that keeps them", async () => {
    const kept = await run(PLAN, { target: "text_restaurant", repetitions: 2, seed: 9 });
    const journaled: string[] = [];
    const released = await run(PLAN, { target: "text_restaurant", repetitions: 2, seed: 9, keep_records: false, onTrialEnd: (r) => void journaled.push(r.trial_id) });
    expect(released.records).toEqual([]);
    expect(journaled.sort()).toEqual(kept.records.map((r) => r.trial_id).sort());
    expect(released.summary).toEqual(kept.summary);
    expect(released.gates).toEqual(kept.gates);
    expect(released.decision).toEqual(kept.decision);
  });

  it("the CLI journals every trial, and the report reads results.json in any valid layout", async () => {
    const out = tmp("cli");
    let stdout = "";
    const code = await main(["run", "--target", "text_restaurant", "--repetitions", "2", "--results-dir", out, "--quiet", "--json"], {
      stdout: (t) => (stdout += t),
      stderr: () => {},
      cwd: repo,
      alpha: alpha as Record<string, unknown>,
      env: {},
    });
    expect(code).toBe(0);
    const dir = join(out, readdirSync(out)[0]!);
    const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
    expect(stdout).toBe(readFileSync(join(dir, "results.json"), "utf8"));
    const lines = readFileSync(join(dir, "trials.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.trial_id).sort()).toEqual(results.trials.map((t: { trial_id: string }) => t.trial_id).sort());
    const pretty = await buildRunReport(dir);
    // The same document minified, with `trials` first: the streaming reader takes any layout.
    const { trials, ...rest } = results;
    writeFileSync(join(dir, "results.json"), JSON.stringify({ trials, ...rest }));
    expect(await buildRunReport(dir)).toBe(pretty);
    writeFileSync(join(dir, "results.json"), JSON.stringify(results).slice(0, -40));
    await expect(buildRunReport(dir)).rejects.toThrow(/results\.json is not valid JSON/);
    writeFileSync(join(dir, "results.json"), JSON.stringify({ ...results, trials: [{ ...trials[0], status: "maybe" }] }));
    await expect(buildRunReport(dir)).rejects.toThrow(/field trials\.0\.status/);
  });
});
