import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendReview, humanVerdicts, latestReviews, readReviews, ReviewError, reviewsJsonSchema, type Review } from "../src/core/review/reviews";
import { carryReviews, earlierRunDirs, loadRunReviews, reviewScope } from "../src/core/review/run-reviews";
import { reviewQueue } from "../src/core/review/queue";
import { cli, line, resultsOf, tmp, writeRun } from "./review-fixtures";

/** Every file under a folder with its size and mtime: "nothing written" is checked against it. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).sort().map((f) => `${f} ${statSync(join(dir, f)).size} ${statSync(join(dir, f)).mtimeMs}`);
}

const TWO = [{ id: "a#1" }, { id: "a#2" }];

describe("reviews.jsonl", () => {
  it("reads every line; for one trial, verifier and reviewer the last line counts; reviewers are combined by majority", () => {
    const dir = writeRun(tmp(), {
      trials: TWO,
      reviews: [
        line("a#1", "human.naturalness", "failed", "ana"),
        line("a#1", "human.naturalness", "passed", "ana"), // ana changed her mind
        line("a#1", "human.naturalness", "passed", "bo"),
        "\n",
        line("a#2", "semantic.task_understanding", "passed", "ana", { anchor: { utterance_id: "turn.2" } }),
        line("a#2", "semantic.task_understanding", "failed", "bo", { anchor: { start_ms: 1200, end_ms: 3400 } }),
        line("a#2", "human.pacing", "unsure", "ana"),
      ].join(""),
    });
    const run = loadRunReviews(dir);
    expect(run.own.map((r) => r.line)).toEqual([1, 2, 3, 5, 6, 7]);
    expect(run.latest.map((r) => `${r.trial_id} ${r.verifier} ${r.reviewer} ${r.verdict}`)).toEqual([
      "a#1 human.naturalness ana passed",
      "a#1 human.naturalness bo passed",
      "a#2 semantic.task_understanding ana passed",
      "a#2 semantic.task_understanding bo failed",
      "a#2 human.pacing ana unsure",
    ]);
    expect(run.verdicts.get("a#1")!.get("human.naturalness")).toBe("passed");
    // One passed, one failed: a tie is unsure.
    expect(run.verdicts.get("a#2")!.get("semantic.task_understanding")).toBe("unsure");
    expect(run.verdicts.get("a#2")!.get("human.pacing")).toBe("unsure");
  });

  it("majority: two failed against one passed is failed", () => {
    const r = (reviewer: string, verdict: Review["verdict"]): Review => ({ trial_id: "t", verifier: "human.prosody", verdict, reviewer, note: "", at: "2026-01-01T00:00:00Z" });
    expect(humanVerdicts(latestReviews([r("a", "failed"), r("b", "passed"), r("c", "failed"), r("d", "unsure")])).get("t")!.get("human.prosody")).toBe("failed");
  });

  it("appends one whole line per review, with the newline a hand-edited file lacked, and refuses a bad review without writing", () => {
    const dir = writeRun(tmp(), { trials: TWO, reviews: line("a#1", "human.naturalness", "passed").trimEnd() });
    const scope = reviewScope(resultsOf({ trials: TWO }));
    const review: Review = { trial_id: "a#2", verifier: "human.prosody", verdict: "failed", reviewer: "bo", note: "flat", at: "2026-01-03T10:00:00+01:00", anchor: { start_ms: 0, end_ms: 500 } };
    appendReview(dir, review, scope);
    const text = readFileSync(join(dir, "reviews.jsonl"), "utf8");
    expect(text.split("\n")).toHaveLength(3);
    expect(JSON.parse(text.split("\n")[1]!)).toEqual(review);
    expect(readReviews(dir, scope).map((r) => r.line)).toEqual([1, 2]);
    expect(() => appendReview(dir, { ...review, trial_id: "z#9" }, scope)).toThrow(ReviewError);
    expect(() => appendReview(dir, { ...review, verifier: "outcome" }, scope)).toThrow(/verifier "outcome" cannot be reviewed in this run/);
    expect(readFileSync(join(dir, "reviews.jsonl"), "utf8")).toBe(text);
  });

  it("crashlab schema --reviews prints one line's JSON Schema; crashlab schema still prints results.json's", async () => {
    const reviews = await cli(["schema", "--reviews"], tmp());
    expect(reviews.code).toBe(0);
    expect(JSON.parse(reviews.stdout)).toEqual(reviewsJsonSchema());
    expect(JSON.parse(reviews.stdout).properties.verdict).toEqual({ type: "string", enum: ["passed", "failed", "unsure"] });
    expect(JSON.parse(reviews.stdout).required).toEqual(["trial_id", "verifier", "verdict", "reviewer", "note", "at"]);
    expect(JSON.parse((await cli(["schema"], tmp())).stdout).properties.results_version).toBeDefined();
  });
});

describe("bad reviews.jsonl: exit 2, one paragraph naming the file and line, nothing written", () => {
  const bad: Array<[string, string, string]> = [
    ["a line that is not JSON", line("a#1", "human.naturalness", "passed") + "{not json\n", "line 2: not a JSON review"],
    ["a line cut short", line("a#1", "human.naturalness", "passed") + line("a#2", "human.pacing", "failed").slice(0, 30), "line 2: not a JSON review"],
    ["an unknown trial id", line("a#7", "human.naturalness", "passed"), 'line 1: trial_id "a#7" is not a trial of this run (results.json has 2 trial(s), e.g. a#1, a#2)'],
    ["an unknown verifier", "\n" + line("a#1", "human.loudness", "passed"), 'line 2: verifier "human.loudness" cannot be reviewed in this run (reviewable: human.naturalness, human.prosody, human.pronunciation, human.pacing, semantic.task_understanding, semantic.context_fidelity)'],
    ["a deterministic verifier", line("a#1", "outcome", "passed"), 'line 1: verifier "outcome" cannot be reviewed'],
    ["a bad verdict", line("a#1", "human.pacing", "maybe" as never), 'line 1: field verdict: expected "passed", "failed" or "unsure" (got "maybe")'],
    ["a missing reviewer", JSON.stringify({ trial_id: "a#1", verifier: "human.pacing", verdict: "passed", note: "", at: "2026-01-01T00:00:00Z" }) + "\n", "line 1: field reviewer:"],
    ["a bad date", line("a#1", "human.pacing", "passed", "ana", { at: "yesterday" }), 'line 1: field at: expected an ISO 8601 date and time, e.g. 2026-01-31T14:05:00Z (got "yesterday")'],
    ["an unknown field", line("a#1", "human.pacing", "passed", "ana", { score: 3 }), 'line 1: unknown field(s) "score"'],
    ["a span ending before it starts", line("a#1", "human.pacing", "passed", "ana", { anchor: { start_ms: 900, end_ms: 100 } }), "line 1: field anchor"],
    ["an array", "[]\n", "line 1: field (the line): expected a JSON object"],
  ];

  it.each(bad)("%s", async (_name, reviews, expected) => {
    const parent = tmp();
    const dir = writeRun(parent, { trials: TWO, reviews });
    const before = snapshot(parent);
    // view too: a reviews file the page could not show is said at once, never an exit 0 with nothing said.
    for (const argv of [["gates", dir], ["calibrate", dir], ["review-queue", dir], ["review", dir, "--trial", "a#1", "--verifier", "human.pacing", "--verdict", "passed", "--reviewer", "x"], ["view", dir, "--print"]]) {
      const r = await cli(argv, parent);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(`crashlab: ${join(dir, "reviews.jsonl")}, ${expected}`);
      expect(r.stderr).toContain("fix or remove the line");
    }
    expect(snapshot(parent)).toEqual(before);
  });

  it("a review the command line gives that the run cannot take is refused before anything is written", async () => {
    const parent = tmp();
    const dir = writeRun(parent, { trials: TWO });
    const before = snapshot(parent);
    const unknown = await cli(["review", dir, "--trial", "a#9", "--verifier", "human.pacing", "--verdict", "passed", "--reviewer", "x"], parent);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`a review for ${join(dir, "reviews.jsonl")} was refused: trial_id "a#9" is not a trial of this run`);
    expect((await cli(["review", dir, "--trial", "a#1", "--verifier", "human.pacing", "--verdict", "meh", "--reviewer", "x"], parent)).stderr).toContain('--verdict takes one of passed, failed, unsure (got "meh")');
    expect((await cli(["review", dir, "--trial", "a#1", "--verifier", "human.pacing", "--verdict", "passed"], parent)).stderr).toContain("--reviewer is required");
    expect((await cli(["gates", join(parent, "nope")], parent)).stderr).toContain(`${join(parent, "nope")} is not a folder: pass one run's folder`);
    expect(snapshot(parent)).toEqual(before);
    expect(existsSync(join(dir, "reviews.jsonl"))).toBe(false);
  });
});

describe("a reviews.jsonl or results.json no person wrote: said for what it is, with none of its bytes raw", () => {
  const READERS = (dir: string) => [["gates", dir], ["calibrate", dir], ["review-queue", dir], ["review", dir, "--trial", "a#1", "--verifier", "human.pacing", "--verdict", "passed", "--reviewer", "x"], ["view", dir, "--print"]];

  /** Every reader refuses the folder: exit 2, one short paragraph holding `expected`, no raw control byte, nothing written. */
  async function refusedByEveryReader(parent: string, dir: string, expected: string, maxLength = 700) {
    const before = snapshot(parent);
    for (const argv of READERS(dir)) {
      const r = await cli(argv, parent);
      expect(r.code, `${argv[0]}: ${r.stderr.slice(0, 500)}`).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trimEnd().split("\n"), argv[0]).toHaveLength(1);
      expect(r.stderr, argv[0]).toContain(expected);
      // Control characters from the file are escaped, never written to the terminal as they are.
      expect(r.stderr.trimEnd(), argv[0]).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
      // A few hundred characters of the file at most, whatever the file holds.
      expect(r.stderr.length, `${argv[0]}: ${r.stderr.slice(0, 300)}…`).toBeLessThanOrEqual(maxLength);
    }
    expect(snapshot(parent)).toEqual(before);
  }

  it("a reviews.jsonl of 600 MB is refused with its size before it is read, not called 'not UTF-8'", async () => {
    const parent = tmp();
    const dir = writeRun(parent, { trials: TWO });
    // Sparse: 600 MB long, no disk used. Refused by its size, so it is never read into memory.
    writeFileSync(join(dir, "reviews.jsonl"), "");
    truncateSync(join(dir, "reviews.jsonl"), 600 << 20);
    await refusedByEveryReader(parent, dir, `crashlab: ${join(dir, "reviews.jsonl")} is 600 MB, more than the 64 MB a reviews.jsonl may hold`);
    rmSync(join(dir, "reviews.jsonl"));
  });

  it("NUL bytes and control characters in a line are escaped in the message, not echoed", async () => {
    const parent = tmp();
    const dir = writeRun(parent, { trials: TWO, reviews: "\u0000\u0000\u001b[2J\u0007" + "\u0000".repeat(5000) + "\n" });
    await refusedByEveryReader(parent, dir, `crashlab: ${join(dir, "reviews.jsonl")}, line 1: not a JSON review`);
    const escaped = writeRun(tmp(), { trials: TWO, reviews: line("a#1\u0000\u001b[31m", "human.pacing", "passed") });
    await refusedByEveryReader(dirname(escaped), escaped, 'line 1: trial_id "a#1\\u0000\\u001b[31m" is not a trial of this run');
  });

  it("a line of 50,000 fields, or one value of 400,000 characters, is quoted a few hundred characters at most", async () => {
    const parent = tmp();
    const fields = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`field_${i}`, "\u0000".repeat(8)]));
    const dir = writeRun(parent, { trials: TWO, reviews: JSON.stringify({ trial_id: "a#1", verifier: "human.pacing", verdict: "passed", reviewer: "x", note: "", at: "2026-01-02T09:00:00Z", ...fields }) + "\n" });
    expect(readFileSync(join(dir, "reviews.jsonl")).length).toBeGreaterThan(1_000_000);
    await refusedByEveryReader(parent, dir, 'line 1: unknown field(s) "field_0", "field_1", "field_2", "field_3", "field_4" and 49995 more');
    const long = writeRun(tmp(), { trials: TWO, reviews: line("x".repeat(400_000), "human.pacing", "passed") });
    await refusedByEveryReader(dirname(long), long, `line 1: trial_id "${"x".repeat(59)}… (`);
    const cut = writeRun(tmp(), { trials: TWO, reviews: `{"trial_id": "${"y".repeat(400_000)}` + "\n" });
    await refusedByEveryReader(dirname(cut), cut, "line 1: not a JSON review");
  });

  it("a results.json edited to hold a human gate the run cannot have is refused (it could never pass), naming the gate", async () => {
    const parent = tmp();
    const dir = writeRun(parent, { trials: TWO, gates: { "human.loudness": { required: true, min_pass_rate: 1, wilson: false } } });
    await refusedByEveryReader(parent, dir, `crashlab: ${join(dir, "results.json")}, field gates.config: "human.loudness" is not a human gate this run can have (human.naturalness, human.prosody, human.pronunciation, human.pacing, human.semantic.task_understanding, human.semantic.context_fidelity)`);
    // human.semantic.<clause> of a clause the run does not have: the same.
    const clause = writeRun(tmp(), { trials: TWO, gates: { "human.semantic.politeness": { required: false, min_pass_rate: 1, wilson: false } } });
    await refusedByEveryReader(dirname(clause), clause, '"human.semantic.politeness" is not a human gate this run can have');
    // compare reads results.json too.
    const other = writeRun(parent, { run_id: "run-b", trials: TWO });
    const compared = await cli(["compare", other, dir], parent);
    expect(compared.code, compared.stderr).toBe(2);
    expect(compared.stderr).toContain(`${join(dir, "results.json")}, field gates.config: "human.loudness" is not a human gate this run can have`);
  });
});

describe("reviews follow provenance", () => {
  it("carries an earlier run's latest reviews to the trial with the same digest, marked with their run; the run's own supersede them", () => {
    const parent = tmp();
    const earlierText = line("x#1", "human.naturalness", "failed", "ana") + line("x#1", "human.naturalness", "passed", "ana") + line("x#2", "human.naturalness", "failed", "ana");
    const earlier = writeRun(parent, { run_id: "run-0", started_at: "2026-01-01T08:00:00.000Z", trials: [{ id: "x#1", digest: "D1" }, { id: "x#2", digest: "D2" }], reviews: earlierText });
    // The current run re-ran x#1's exact trial (digest D1) under another id; D3 is new.
    const current = writeRun(parent, { run_id: "run-1", started_at: "2026-01-01T09:00:00.000Z", trials: [{ id: "a#1", digest: "D1" }, { id: "a#2", digest: "D3" }], reviews: line("a#1", "human.naturalness", "failed", "bo") });
    writeRun(parent, { run_id: "run-2", started_at: "2026-01-01T10:00:00.000Z", trials: [{ id: "a#1", digest: "D1" }], reviews: line("a#1", "human.naturalness", "failed", "cy") });
    writeRun(parent, { run_id: "run-3", started_at: "2026-01-01T07:00:00.000Z", trials: [{ id: "y#1", digest: "D1" }] }); // no reviews.jsonl: never read

    expect(earlierRunDirs(current, "2026-01-01T09:00:00.000Z")).toEqual({ dirs: [earlier], skipped: [] });
    const run = loadRunReviews(current, { carry_from: earlierRunDirs(current, "2026-01-01T09:00:00.000Z").dirs });
    expect(run.carried).toEqual([{ trial_id: "a#1", verifier: "human.naturalness", verdict: "passed", reviewer: "ana", note: "", at: "2026-01-02T09:00:00Z", line: 2, carried_from: "run-0", carried_trial_id: "x#1" }]);
    // bo (own) and ana (carried) on a#1: a tie, so unsure; a#2 has nothing.
    expect(run.latest.map((r) => `${r.reviewer}:${r.verdict}:${r.carried_from ?? "own"}`)).toEqual(["ana:passed:run-0", "bo:failed:own"]);
    expect(run.verdicts.get("a#1")!.get("human.naturalness")).toBe("unsure");
    expect(run.verdicts.has("a#2")).toBe(false);
    // The earlier file is never rewritten.
    expect(readFileSync(join(earlier, "reviews.jsonl"), "utf8")).toBe(earlierText);
  });

  it("a damaged run beside this one is left out of carrying, with why; a link in place of a run folder is not followed", async () => {
    const parent = tmp();
    const earlier = writeRun(parent, { run_id: "run-0", started_at: "2026-01-01T08:00:00.000Z", trials: [{ id: "x#1", digest: "D1" }], reviews: line("x#1", "human.naturalness", "passed", "ana") });
    const damaged = writeRun(parent, { run_id: "run-d", started_at: "2026-01-01T08:30:00.000Z", trials: [{ id: "x#1", digest: "D1" }], reviews: "not json\n" });
    const current = writeRun(parent, { run_id: "run-1", started_at: "2026-01-01T09:00:00.000Z", trials: [{ id: "a#1", digest: "D1" }] });
    // A folder elsewhere, linked in as if it were a run beside this one: never read.
    const elsewhere = tmp();
    const outside = writeRun(elsewhere, { run_id: "run-o", started_at: "2026-01-01T07:00:00.000Z", trials: [{ id: "x#1", digest: "D1" }], reviews: line("x#1", "human.naturalness", "failed", "zed") });
    symlinkSync(outside, join(parent, "linked-run"));
    const found = earlierRunDirs(current, "2026-01-01T09:00:00.000Z");
    expect(found.dirs).toEqual([earlier]);
    expect(found.skipped).toEqual([{ dir: damaged, reason: expect.stringContaining(`${join(damaged, "reviews.jsonl")}, line 1: not a JSON review`) }]);
    // gates --carry decides the run with what it could carry, and says what it left out.
    const r = await cli(["gates", current, "--carry"], parent);
    expect(r.stdout).toContain("1 carried from 1 earlier run(s)");
    expect(r.stderr).toBe(`crashlab: not carrying reviews from ${damaged}: ${found.skipped[0]!.reason}\n`);
    mkdirSync(join(parent, "empty"));
    expect(earlierRunDirs(current, "2026-01-01T09:00:00.000Z").dirs).toEqual([earlier]);
  });

  it("the run's own review by the same reviewer supersedes a carried one; a later earlier run supersedes an older one", () => {
    const review = (trial_id: string, verdict: Review["verdict"]): Review => ({ trial_id, verifier: "human.pacing", verdict, reviewer: "ana", note: "", at: "2026-01-01T00:00:00Z" });
    const verifiers = new Set(["human.pacing"]);
    const current = { run_id: "now", trials: [{ trial_id: "c#1", digest: "D" }], reviews: [review("c#1", "failed")] };
    const older = { run_id: "old", trials: [{ trial_id: "o#1", digest: "D" }], reviews: [review("o#1", "passed")] };
    const newer = { run_id: "new", trials: [{ trial_id: "n#1", digest: "D" }], reviews: [review("n#1", "unsure")] };
    const carried = carryReviews(current, [older, newer], verifiers);
    expect(carried.map((r) => `${r.carried_from}:${r.verdict}`)).toEqual(["old:passed", "new:unsure"]);
    expect(latestReviews(carried).map((r) => r.verdict)).toEqual(["unsure"]);
    expect(latestReviews([...carried, ...current.reviews]).map((r) => r.verdict)).toEqual(["failed"]);
    // A verifier this run cannot review, and the run itself given as "earlier", carry nothing.
    expect(carryReviews(current, [older], new Set(["human.prosody"]))).toEqual([]);
    expect(carryReviews(current, [{ ...older, run_id: "now" }], verifiers)).toEqual([]);
  });
});

describe("the review queue", () => {
  const trials = resultsOf({
    trials: [
      { id: "a#1", status: "infrastructure_error" },
      { id: "a#2", status: "inconclusive" },
      { id: "a#3", status: "failed" },
      { id: "b#1", status: "failed" },
      { id: "a#4" },
      { id: "a#5" },
      { id: "a#6" },
      { id: "w#1", case: "w", condition: "noisy" },
      { id: "w#2", case: "w", condition: "noisy" },
      { id: "v#1", case: "v", condition: "telephony" },
    ],
  }).trials;

  it("puts failed, then inconclusive, then infrastructure errors first, in results order", () => {
    expect(reviewQueue(trials, { sample: 0 }).map((q) => `${q.trial_id} ${q.reason}`)).toEqual(["a#3 failed", "b#1 failed", "a#2 inconclusive", "a#1 infrastructure_error"]);
  });

  it("samples passing trials one per case and condition in turn, deterministically for a seed", () => {
    const q = reviewQueue(trials, { sample: 3, seed: 7 });
    const sampled = q.slice(4);
    expect(sampled.every((s) => s.reason === "sample" && s.status === "passed")).toBe(true);
    // Three strata (a / none, w / noisy, v / telephony): a sample of 3 takes one from each.
    expect(new Set(sampled.map((s) => s.stratum))).toEqual(new Set(["a / none", "w / noisy", "v / telephony"]));
    expect(sampled.find((s) => s.case_id === "v")).toMatchObject({ trial_id: "v#1", condition: "telephony" });
    // The same seed, and the same trials in another order, give the same queue.
    const passingReversed = [...trials.filter((t) => t.status !== "passed"), ...trials.filter((t) => t.status === "passed").reverse()];
    expect(reviewQueue(passingReversed, { sample: 3, seed: 7 })).toEqual(q);
    expect(reviewQueue(trials, { sample: 3, seed: 7 })).toEqual(q);
    // Five: the two largest strata give a second trial each; all six passing trials when asked for more.
    const five = reviewQueue(trials, { sample: 5, seed: 7 }).slice(4);
    expect(five.filter((s) => s.case_id === "a")).toHaveLength(2);
    expect(five.filter((s) => s.case_id === "w")).toHaveLength(2);
    expect(reviewQueue(trials, { sample: 100, seed: 7 }).slice(4).map((s) => s.trial_id).sort()).toEqual(["a#4", "a#5", "a#6", "v#1", "w#1", "w#2"]);
  });

  it("different seeds draw different samples of a stratum", () => {
    const picks = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => reviewQueue(trials, { sample: 3, seed }).find((s) => s.reason === "sample" && s.case_id === "a")!.trial_id));
    expect(picks.size).toBeGreaterThan(1);
  });

  it("crashlab review-queue prints it, with each trial's review count", async () => {
    const parent = tmp();
    const dir = writeRun(parent, { trials: [{ id: "a#1", status: "failed" }, { id: "a#2" }, { id: "b#1" }], reviews: line("a#1", "human.pacing", "failed") + line("a#1", "human.prosody", "failed") });
    const json = await cli(["review-queue", dir, "--review-sample", "1", "--seed", "3", "--json"], parent);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout);
    expect(out).toMatchObject({ run_id: "run-a", sample: 1, seed: 3 });
    expect(out.queue).toHaveLength(2);
    expect(out.queue[0]).toEqual({ trial_id: "a#1", case_id: "a", condition: null, status: "failed", reason: "failed", stratum: null, reviews: 2 });
    expect(out.queue[1]).toMatchObject({ reason: "sample", reviews: 0 });
    const text = await cli(["review-queue", dir], parent);
    expect(text.stdout).toContain("review queue of run-a: 1 trial(s) that did not pass, then 2 sampled passing trial(s) (seed 1)");
    expect(text.stdout).toMatch(/a#1\s+did not pass\s+failed\s+a \/ none\s+2/);
  });
});

describe("crashlab review", () => {
  it("appends the review it is given and the gates read it", async () => {
    const parent = tmp();
    const dir = writeRun(parent, { trials: TWO, gates: { "human.naturalness": { required: true, min_pass_rate: 1, wilson: false, min_reviewed: 1, min_reviewed_share: 0 } } });
    const r = await cli(["review", dir, "--trial", "a#1", "--verifier", "human.naturalness", "--verdict", "passed", "--reviewer", "ana", "--note", "warm", "--start-ms", "100", "--end-ms", "900"], parent);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const [saved] = readReviews(dir, reviewScope(resultsOf({ trials: TWO })));
    expect(saved).toMatchObject({ trial_id: "a#1", verifier: "human.naturalness", verdict: "passed", reviewer: "ana", note: "warm", anchor: { start_ms: 100, end_ms: 900 }, line: 1 });
    expect(Date.parse(saved!.at)).toBeGreaterThan(Date.parse("2026-01-01"));
  });
});

describe("crashlab gates", () => {
  const naturalness = { "human.naturalness": { required: true, min_pass_rate: 1, wilson: false, min_reviewed: 2, min_reviewed_share: 0 } };

  it("prints each gate and the decision, and exits as run does; an interrupted run keeps its signal's code and no pass", async () => {
    const parent = tmp();
    const reviews = line("a#1", "human.naturalness", "passed") + line("a#2", "human.naturalness", "passed");
    const dir = writeRun(parent, { trials: TWO, gates: naturalness, reviews });
    const before = snapshot(parent);
    const pass = await cli(["gates", dir], parent);
    expect(pass.code).toBe(0);
    expect(pass.stdout).toBe(
      [
        "gates of run-a with 2 review(s) (2 line(s) in reviews.jsonl)",
        "gate required PASS  human.naturalness: 2/2 reviewed trial(s) passed, pass rate >= 1",
        "gate required PASS  outcome: every case's pass rate >= 1",
        "decision: PASS (exit 0) — all 2 required gate(s) passed",
        "",
      ].join("\n"),
    );
    const stopped = writeRun(parent, { run_id: "run-b", trials: TWO, gates: naturalness, reviews, interrupted: true });
    const r = await cli(["gates", stopped, "--json"], parent);
    expect(r.code).toBe(130);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, decision: "interrupted", exit_code: 130 });
    expect(JSON.parse(r.stdout).message).toMatch(/^the run was interrupted by SIGINT: no pass decision \(the gates on its finished trials say: all 2 required gate\(s\) passed\)$/);
    // Nothing written by either.
    expect(snapshot(parent).filter((f) => f.startsWith("run-a"))).toEqual(before);
  });

  it("a failing human verdict fails the gate like any other (exit 1)", async () => {
    const parent = tmp();
    const dir = writeRun(parent, { trials: TWO, gates: naturalness, reviews: line("a#1", "human.naturalness", "passed") + line("a#2", "human.naturalness", "failed") });
    const r = await cli(["gates", dir], parent);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("gate required FAIL  human.naturalness: 1/2 reviewed trial(s) passed, pass rate below 1");
    expect(r.stdout).toContain("decision: FAIL (exit 1) — 1 required gate(s) failed");
  });
});
