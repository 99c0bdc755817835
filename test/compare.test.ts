import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { compareRuns, latencyText, type CompareRun, type CompareTrial } from "../src/core/compare/compare";
import { fisherExact } from "../src/core/stats/fisher";

/**
 * `crashlab compare`: a seeded regression (a faulty target that double-books, failing a subset of cases)
 * is flagged as significant; two runs of one target with different seeds are not; the gates' exit codes.
 */
const repo = resolve(import.meta.dirname, "..");

async function cli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {} });
  return { code, stdout, stderr };
}

async function runTo(argv: string[]): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), "compare-"));
  await cli(["run", ...argv, "--results-dir", out, "--quiet"]);
  return join(out, readdirSync(out)[0]!);
}

describe("Fisher's exact test", () => {
  it("gives the textbook two-sided p-values", () => {
    // The lady tasting tea: 3 of 4 right in each group.
    expect(fisherExact(3, 1, 1, 3)).toBeCloseTo(0.4857, 4);
    // 5/5 against 0/5: 2 of the C(10,5) = 252 tables are as extreme.
    expect(fisherExact(5, 0, 0, 5)).toBeCloseTo(2 / 252, 10);
    expect(fisherExact(3, 0, 0, 3)).toBeCloseTo(0.1, 10);
    expect(fisherExact(4, 1, 4, 1)).toBeCloseTo(1, 10);
    expect(fisherExact(0, 0, 3, 2)).toBe(1);
    // Symmetric in the groups and in pass/fail.
    expect(fisherExact(7, 3, 2, 8)).toBeCloseTo(fisherExact(2, 8, 7, 3), 12);
    expect(fisherExact(7, 3, 2, 8)).toBeCloseTo(fisherExact(3, 7, 8, 2), 12);
  });
});

describe("crashlab compare", () => {
  it("a damaged head run or an --html path it cannot write is one paragraph (exit 2), and leaves no temporary file", async () => {
    const base = await runTo(["--target", "text_restaurant", "--example", "harbor_001"]);
    const text = readFileSync(join(base, "results.json"), "utf8");
    const damaged = (name: string, write: (dir: string) => void) => {
      const dir = mkdtempSync(join(tmpdir(), `compare-${name}-`));
      write(dir);
      return dir;
    };
    const heads: Array<[string, (dir: string) => void, RegExp]> = [
      ["cut", (d) => writeFileSync(join(d, "results.json"), text.slice(0, 300)), /results\.json cannot be read \(the file ends before its JSON does\); the run folder is damaged/],
      ["array", (d) => writeFileSync(join(d, "results.json"), "[]"), /results\.json cannot be read \(the top level is not an object\)/],
      ["folder", (d) => mkdirSync(join(d, "results.json")), /results\.json is a folder, not a file: the run folder is damaged/],
      ["no-config", (d) => writeFileSync(join(d, "results.json"), JSON.stringify({ ...JSON.parse(text), gates: { ...JSON.parse(text).gates, config: null } })), /has no run section or no gates\.config object/],
    ];
    for (const [name, write, message] of heads) {
      const r = await cli(["compare", base, damaged(name, write)]);
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(message);
      expect(r.stderr.trim().split("\n"), name).toHaveLength(1);
    }
    const folder = mkdtempSync(join(tmpdir(), "compare-html-"));
    const html = await cli(["compare", base, base, "--html", folder]);
    expect(html.code).toBe(2);
    expect(html.stderr).toMatch(/--html .* is a folder; give the file to write/);
    writeFileSync(join(folder, "a-file"), "");
    const nowhere = await cli(["compare", base, base, "--html", join(folder, "a-file", "x.html")]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/cannot be written \((ENOTDIR|EEXIST)\); give a file in a folder you can write to/);
    expect(readdirSync(join(folder, ".."))).not.toContain(`${folder.split("/").at(-1)}.tmp-${process.pid}`);
  });

  it("refuses two runs with no case in common (exit 2) instead of passing a comparison of nothing", async () => {
    const crawl = await runTo(["--target", "text_restaurant", "--example", "harbor_001"]);
    const other = await runTo(["--target", "text_restaurant", "--example", "harbor_002"]);
    const r = await cli(["compare", crawl, other, "--fail-on-regression"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^crashlab: the two runs have no case in common \(.+: harbor_001; .+: harbor_002\); compare two runs of the same plan/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect((await cli(["compare", crawl, crawl, "--fail-on-regression"])).code).toBe(0);
  });

  it("flags a seeded regression as significant, and its gates set the exit code", async () => {
    const sel = ["--tag", "crawl", "--repetitions", "5", "--advisory", "no_double_booking"];
    const base = await runTo(["--target", "text_restaurant", ...sel, "--seed", "1"]);
    const faulty = await runTo(["--target", "text_faulty_double_books", ...sel, "--seed", "1"]);

    const reg = await cli(["compare", base, faulty, "--json"]);
    expect(reg.code).toBe(0); // no gate asked for
    const c = JSON.parse(reg.stdout);
    expect(c.overall.status.answer).toBe("regression");
    expect(c.overall.status.p_value).toBeLessThan(0.001);
    expect(c.overall.verifiers.outcome.answer).toBe("regression");
    // The double-booking cases dropped 5/5 → 0/5 (p = 2/252): a regression at n = 5; the others did not
    // change, and 5 repetitions are too few to rule out a 50-point drop (12 are needed).
    const dropped = c.cases.filter((x: { status: { answer: string } }) => x.status.answer === "regression").map((x: { case_id: string }) => x.case_id);
    expect(dropped).toEqual(expect.arrayContaining(["harbor_001", "harbor_003"]));
    for (const x of c.cases) {
      if (dropped.includes(x.case_id)) expect(x.status).toMatchObject({ base: { passes: 5, trials: 5 }, head: { passes: 0, trials: 5 }, p_value: 0.007937, flipped: true });
      else expect(x.status).toMatchObject({ answer: "cannot tell", power: 0.188, repetitions_needed: 12, flipped: false });
    }
    expect(c.required_regressions.length).toBeGreaterThan(0);
    // The faulty target is another policy (its model part) with a fault set (its settings part).
    expect(c.provenance).toMatchObject({ identical: false, differs: ["model", "settings"] });
    const gated = await cli(["compare", base, faulty, "--fail-on-regression"]);
    expect(gated.code).toBe(1);
    expect(gated.stdout).toMatch(/decision: FAIL \(exit 1\) — \d+ regression\(s\) of a required verifier/);
    expect(gated.stdout).toMatch(/harbor_003 +5\/5 → 0\/5 ▼ +regression +0.007937 /);
    expect(gated.stdout).toMatch(/‼ passed every repetition, now fails every one \(whatever the p-value\):\n  overall|‼ passed every repetition[^\n]*\n(  .*\n)*  harbor_001: passed 5\/5 in base, 0\/5 in head/);
    expect(gated.stdout).toContain("targets differ: model, settings");

    // Baseline-relative limits: the same run against itself passes +0%; demanding a 10% faster P90 fails.
    expect((await cli(["compare", base, base, "--max-p90-duration-increase", "0"])).code).toBe(0);
    const slower = await cli(["compare", base, base, "--max-p90-duration-increase", "-10"]);
    expect(slower.code).toBe(1);
    expect(slower.stdout).toMatch(/P90 duration \d+(\.\d+)? ms is more than base \d+(\.\d+)? ms -10%/);
    // Text-level runs measure no response latency: a latency limit says it cannot be checked, and fails.
    const noLatency = await cli(["compare", base, faulty, "--max-p90-latency-increase", "10"]);
    expect(noLatency.code).toBe(1);
    expect(noLatency.stdout).toMatch(/P90 response latency: not measured in both runs/);

    const html = join(mkdtempSync(join(tmpdir(), "compare-html-")), "compare.html");
    expect((await cli(["compare", base, faulty, "--html", html])).code).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toContain("Regressions");
    expect(page).toContain('<div class="decision-word">REGRESSED</div>');
    expect(page).toMatch(/harbor_003<\/code><\/td><td class="t-failed">5\/5 → 0\/5<br><span class="muted">regression · p = 0.007937/);

    const bad = await cli(["compare", base]);
    expect(bad.code).toBe(2);
    expect((await cli(["compare", base, tmpdir()])).stderr).toMatch(/holds no results\.json/);
    expect((await cli(["compare", base, faulty, "--alpha", "2"])).code).toBe(2);
    expect((await cli(["compare", base, faulty, "--strict"])).stderr).toMatch(/--strict applies to --fail-on-regression/);
  });

  it("3/3 → 0/3 is never \"no regression\": cannot tell, with the repetitions needed, shown first; --strict fails on it", async () => {
    const sel = ["--example", "harbor_001", "--example", "harbor_002", "--repetitions", "3", "--advisory", "no_double_booking"];
    const base = await runTo(["--target", "text_restaurant", ...sel]);
    const faulty = await runTo(["--target", "text_faulty_double_books", ...sel]);
    const c = JSON.parse((await cli(["compare", base, faulty, "--json"])).stdout);
    const broken = c.cases.find((x: { case_id: string }) => x.case_id === "harbor_001");
    // Fisher: p = 0.1 at 3 against 3; no table of 3 against 3 reaches 0.05, so the power is 0.
    expect(broken.verifiers.outcome).toMatchObject({ base: { passes: 3, trials: 3 }, head: { passes: 0, trials: 3 }, p_value: 0.1, answer: "cannot tell", power: 0, repetitions_needed: 12, flipped: true });
    expect(c.flipped).toContain("harbor_001: passed 3/3 in base, 0/3 in head (passed trials)");
    const text = await cli(["compare", base, faulty, "--fail-on-regression"]);
    expect(text.stdout).not.toMatch(/no regression detected/);
    expect(text.stdout.split("\n")[1]).toBe("‼ passed every repetition, now fails every one (whatever the p-value):");
    expect(text.stdout).toMatch(/harbor_001: outcome 3\/3 → 0\/3 \(p = 0\.1\): cannot tell — 3 → 3 repetitions see a 50-point drop with probability 0; 12 repetitions per run would see it with 0\.8/);
    // Pooled over both cases (6 against 6: both double-book) the drop is significant overall: a regression, which fails the gate.
    expect(c.overall.verifiers.outcome.answer).toBe("regression");
    expect(text.code).toBe(1);
    // Per case alone: without --strict a cannot-tell passes and says so; with it, it fails.
    const one = ["--example", "harbor_001", "--repetitions", "3", "--advisory", "no_double_booking"];
    const b1 = await runTo(["--target", "text_restaurant", ...one]);
    const f1 = await runTo(["--target", "text_faulty_double_books", ...one]);
    const lenient = await cli(["compare", b1, f1, "--fail-on-regression"]);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(/decision: PASS \(exit 0\) — cannot tell: \d+ required rate\(s\) had too few repetitions to see the drop that matters \(--strict fails on them\); none regressed significantly/);
    expect(lenient.stdout).not.toMatch(/no regression/);
    expect(lenient.stdout).toMatch(/harbor_001 +3\/3 → 0\/3 \? +cannot tell \(12 reps needed\)/);
    const strict = await cli(["compare", b1, f1, "--fail-on-regression", "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/decision: FAIL \(exit 1\) — \d+ required rate\(s\) cannot tell at these repetitions \(--strict\): overall: outcome 3\/3 → 0\/3/);
  });

  it("two seeds of one target: no regression detected, and the targets are identical", async () => {
    const sel = ["--example", "harbor_001", "--example", "harbor_002", "--repetitions", "12", "--advisory", "no_double_booking"];
    const base = await runTo(["--target", "text_restaurant", ...sel, "--seed", "1"]);
    const other = await runTo(["--target", "text_restaurant", ...sel, "--seed", "2"]);
    const same = await cli(["compare", base, other, "--fail-on-regression", "--strict", "--json"]);
    expect(same.code).toBe(0);
    const s = JSON.parse(same.stdout);
    expect(s.regressions).toEqual([]);
    expect(s.cannot_tell).toEqual([]);
    for (const x of s.cases) expect(x.status).toMatchObject({ base: { passes: 12, trials: 12 }, head: { passes: 12, trials: 12 }, answer: "no regression detected", power: 0.806 });
    expect(s.provenance).toMatchObject({ identical: true, differs: [] });
    expect(s.gates).toEqual({ asked: true, ok: true, failed: [] });
    const text = (await cli(["compare", base, other, "--fail-on-regression"])).stdout;
    expect(text).toContain("targets: identical (same package files and target digest in both runs): nothing in the target changed, so the comparison measures noise");
    expect(text).toContain("decision: PASS (exit 0) — no regression detected");
  });
});

describe("compare: response latency", () => {
  const trial = (case_id: string, response_latencies_ms: number[] | null): CompareTrial => ({ trial_id: `${case_id}#1`, case_id, status: "passed", verdicts: {}, response_latencies_ms, duration_ms: 1000, audio_ms: null, backend_tokens: null, provenance: null });
  const runOf = (run_id: string, trials: CompareTrial[]): CompareRun => ({ run_id, target: "restaurant", seed: 1, required: [], trials, provenance: { package_files: null } });

  it("reports the change over every answered request, late answers included, with its own numbers", () => {
    // Base: a booking answered at 680 ms, a conversation at 1020, 1020 and 1300 ms.
    // Head: the same, 6 s later: 6680; 7020, 7020, 7300 — each past the 5000 ms deadline, still measured.
    const base = runOf("base", [trial("book", [680]), trial("talk", [1020, 1020, 1300])]);
    const head = runOf("head", [trial("book", [6680]), trial("talk", [7020, 7020, 7300])]);
    const c = compareRuns(base, head);
    // Overall, pooled: base sorted 680, 1020, 1020, 1300 → P50 1020, P90 rank 2.7 → 1020 + 0.7 × 280 = 1216;
    // head 6680, 7020, 7020, 7300 → P50 7020, P90 7216; change 7216 / 1216 − 1 = 4.9342.
    expect(c.overall.latency_ms).toEqual({ base: { p50: 1020, p90: 1216 }, head: { p50: 7020, p90: 7216 }, p90_change: 4.9342, requests: { base: 4, head: 4 }, measured: true });
    expect(latencyText(c.overall.latency_ms)).toBe("P50 1020 → 7020, P90 1216 → 7216 (+493.4%; 4 → 4 answers)");
    const talk = c.cases.find((x) => x.case_id === "talk")!;
    // 1020, 1020, 1300: rank 1.8 → 1020 + 0.8 × 280 = 1244; head 7244.
    expect(talk.latency_ms).toMatchObject({ base: { p50: 1020, p90: 1244 }, head: { p50: 7020, p90: 7244 }, requests: { base: 3, head: 3 } });
    // Faster is a negative change.
    expect(latencyText(compareRuns(head, base).cases.find((x) => x.case_id === "book")!.latency_ms)).toBe("P50 6680 → 680, P90 6680 → 680 (-89.8%; 1 → 1 answers)");
  });

  it("says \"not measured\" unless both runs measured it, naming the run that did not", () => {
    const measured = runOf("m", [trial("book", [700])]);
    const text = runOf("t", [trial("book", null)]);
    const c = compareRuns(text, measured);
    expect(c.overall.latency_ms).toEqual({ base: { p50: null, p90: null }, head: { p50: 700, p90: 700 }, p90_change: null, requests: { base: null, head: 1 }, measured: false });
    expect(latencyText(c.overall.latency_ms)).toBe("not measured in base");
    expect(latencyText(compareRuns(measured, text).overall.latency_ms)).toBe("not measured in head");
    expect(latencyText(compareRuns(text, text).overall.latency_ms)).toBe("not measured");
    // Measured, but nothing was ever answered in the head: both measured, no numbers to compare.
    const silent = compareRuns(measured, runOf("s", [trial("book", [])])).overall.latency_ms;
    expect(silent).toMatchObject({ measured: true, requests: { base: 1, head: 0 }, head: { p50: null, p90: null }, p90_change: null });
    expect(latencyText(silent)).toBe("P50 700 → —, P90 700 → — (—; 1 → 0 answers)");
    // One trial of a run with audio is enough to call the run measured.
    const mixed = compareRuns(runOf("x", [trial("book", null), trial("book", [900])]), measured).overall.latency_ms;
    expect(mixed).toMatchObject({ measured: true, requests: { base: 1, head: 1 }, base: { p90: 900 } });
  });
});

describe("compare: the repetitions docs/compare.md states", () => {
  it("are what the power search finds", async () => {
    const { repetitionsNeeded, fisherPower } = await import("../src/core/stats/power");
    const table = readFileSync(resolve(repo, "docs/compare.md"), "utf8");
    for (const [rate, cells] of [[1, [12, 21, 39]], [0.8, [18, 44, 90]], [0.6, [17, 48, null]]] as const) {
      const found = [0.5, 0.3, 0.2].map((drop) => repetitionsNeeded(rate, drop, 0.05, 0.8));
      expect(found).toEqual(cells);
      expect(table).toContain(`| ${rate * 100}% | ${cells.map((c) => (c === null ? "more than 100" : String(c))).join(" | ")} |`);
    }
    // The 5-repetition claim: a drop to 15% is seen with 80% power, to 20% not.
    expect(fisherPower(5, 5, 1, 0.15, 0.05)).toBeGreaterThan(0.8);
    expect(fisherPower(5, 5, 1, 0.2, 0.05)).toBeLessThan(0.8);
    // Power never exceeds 1 and is 0 where no table can be significant (3 against 3).
    expect(fisherPower(3, 3, 1, 0, 0.05)).toBe(0);
    expect(fisherPower(4, 4, 1, 0, 0.05)).toBe(1);
  });
});
