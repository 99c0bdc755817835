/**
 * `pnpm bench compare`'s pieces without running a benchmark: the statistics on fixed vectors (the bootstrap
 * checked against an exact enumeration), the command line's errors, the plan a dry run prints, and the
 * summary printed from fixed measurements. No timing is asserted.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CompareError, compare, describePlan, distState, formatSummary, loadWarning, parseCompareArgs, planCompare, summarize, type RunMeasure } from "../bench/compare";
import { pairedRatio, seededRandom, spread, verdict } from "../bench/compare-stats";
import { percentile } from "../src/core/stats/rates";

const repo = resolve(import.meta.dirname, "..");

describe("a build's spread", () => {
  it("gives the median, the extremes and the quartiles by linear interpolation", () => {
    expect(spread([5, 1, 3, 2, 4])).toEqual({ n: 5, median: 3, min: 1, max: 5, q1: 2, q3: 4 });
    expect(spread([4, 1, 3, 2])).toEqual({ n: 4, median: 2.5, min: 1, max: 4, q1: 1.75, q3: 3.25 });
    expect(spread([7])).toEqual({ n: 1, median: 7, min: 7, max: 7, q1: 7, q3: 7 });
  });

  it("refuses no values", () => {
    expect(() => spread([])).toThrow("no values");
  });
});

describe("the ratio over paired rounds", () => {
  it("divides each round's previous by its current and takes the median", () => {
    const r = pairedRatio([30, 24, 27], [25, 24, 30]);
    expect(r.per_round).toEqual([1.2, 1, 0.9]);
    expect(r.median).toBe(1);
  });

  it("keeps rounds paired: swapping rounds within one build changes the ratios", () => {
    // Same values per build, paired differently: a test that pooled the builds could not tell these apart.
    const together = pairedRatio([20, 30], [20, 30]);
    const crossed = pairedRatio([20, 30], [30, 20]);
    expect(together.per_round).toEqual([1, 1]);
    expect(together.low).toBe(1);
    expect(crossed.per_round).toEqual([20 / 30, 1.5]);
    expect(crossed.low).toBeCloseTo(20 / 30, 12);
    expect(crossed.high).toBe(1.5);
  });

  it("has a point interval from one round, and the two values from two (each resample's median is one of a, (a+b)/2, b)", () => {
    const one = pairedRatio([12], [10]);
    expect([one.low, one.median, one.high]).toEqual([1.2, 1.2, 1.2]);
    // P(both draws are a) = 1/4, beyond the 2.5% tail: the interval is exactly [a, b].
    const two = pairedRatio([11, 13], [10, 10]);
    expect(two.low).toBeCloseTo(1.1, 12);
    expect(two.high).toBeCloseTo(1.3, 12);
    expect(two.median).toBeCloseTo(1.2, 12);
  });

  it("matches the exact bootstrap distribution, every one of the 6^6 resamples enumerated", () => {
    const ratios = [0.92, 1.0, 1.05, 1.1, 1.18, 1.3];
    const medians: number[] = [];
    for (let code = 0; code < 6 ** 6; code++) {
      const sample: number[] = [];
      for (let i = 0, c = code; i < 6; i++, c = Math.floor(c / 6)) sample.push(ratios[c % 6]!);
      medians.push(percentile(sample, 0.5)!);
    }
    const exactLow = percentile(medians, 0.025)!;
    const exactHigh = percentile(medians, 0.975)!;
    // The exact 2.5% and 97.5% points sit inside atoms of the distribution (not on an edge), so 10,000
    // draws land on the same values: 0.96 holds 0.9%–3.5% of the mass, 1.24 holds 96.5%–99.1%.
    expect(exactLow).toBeCloseTo(0.96, 12);
    expect(exactHigh).toBeCloseTo(1.24, 12);
    const r = pairedRatio(ratios, ratios.map(() => 1));
    expect(r.low).toBeCloseTo(exactLow, 12);
    expect(r.high).toBeCloseTo(exactHigh, 12);
    expect(r.median).toBeCloseTo(1.075, 12);
    // Narrower than the range of the rounds: the interval is of the median, not of one round.
    expect(r.low).toBeGreaterThan(Math.min(...ratios));
    expect(r.high).toBeLessThan(Math.max(...ratios));
  });

  it("prints the same interval for the same measurements (a fixed seed)", () => {
    const a = pairedRatio([30, 31, 29, 33, 28], [25, 27, 26, 24, 27]);
    const b = pairedRatio([30, 31, 29, 33, 28], [25, 27, 26, 24, 27]);
    expect(b).toEqual(a);
    const random = seededRandom(1);
    const draws = Array.from({ length: 1000 }, random);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(new Set(draws).size).toBe(1000);
  });

  it("refuses unpaired or empty rounds", () => {
    expect(() => pairedRatio([1, 2], [1])).toThrow("as many previous as current values (2 against 1)");
    expect(() => pairedRatio([], [])).toThrow("no rounds");
  });

  it("says which way the interval points", () => {
    expect(verdict({ low: 1.05, high: 1.3 }, "wall time")).toBe("the current build's wall time is lower: the whole interval is above 1");
    expect(verdict({ low: 0.8, high: 0.97 }, "CPU")).toBe("the current build's CPU is higher: the whole interval is below 1");
    expect(verdict({ low: 0.95, high: 1.1 }, "CPU")).toBe("no difference shown in CPU: the interval includes 1");
  });
});

describe("the command line", () => {
  const error = (argv: string[]) => {
    try {
      parseCompareArgs(argv);
    } catch (e) {
      expect(e).toBeInstanceOf(CompareError);
      return e as CompareError;
    }
    throw new Error(`no error for ${argv.join(" ")}`);
  };

  it("takes a ref, with five rounds of five repetitions by default", () => {
    expect(parseCompareArgs(["main"])).toEqual({ ref: "main", rounds: 5, repetitions: 5, dryRun: false });
    expect(parseCompareArgs(["3c7bf1a", "--rounds", "9", "--repetitions", "1", "--dry-run"])).toEqual({ ref: "3c7bf1a", rounds: 9, repetitions: 1, dryRun: true });
    expect(parseCompareArgs(["--help"])).toBeNull();
  });

  it("names what is wrong, with the usage, and exits 2", () => {
    expect(error([]).message).toMatch(/^give the git ref to compare this tree with .*\n\nusage: pnpm bench compare <git-ref>/s);
    expect(error(["a", "b"]).message).toMatch(/^one git ref only, not "a" "b"/);
    expect(error(["main", "--rounds", "1"]).message).toMatch(/^--rounds takes a whole number of at least 2, not "1"/);
    expect(error(["main", "--rounds", "five"]).message).toMatch(/^--rounds takes a whole number of at least 2, not "five"/);
    expect(error(["main", "--repetitions", "0"]).message).toMatch(/^--repetitions takes a whole number of at least 1, not "0"/);
    expect(error(["main", "--warmup"]).message).toMatch(/--warmup/);
    expect(error(["main", "--warmup"]).exitCode).toBe(2);
  });

  it("refuses a ref that is no commit, naming it and the repository", () => {
    const e = (() => {
      try {
        planCompare({ ref: "no-such-ref-anywhere", rounds: 5, repetitions: 5, dryRun: true }, repo);
      } catch (caught) {
        return caught as CompareError;
      }
    })();
    expect(e).toBeInstanceOf(CompareError);
    expect(e!.exitCode).toBe(2);
    expect(e!.message).toContain(`"no-such-ref-anywhere" is not a commit in ${repo}`);
  });
});

describe("a dry run", () => {
  it("resolves the ref and prints the rounds, alternating which build goes first, and builds nothing", async () => {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).trim();
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith("crashlab-bench-compare-"));
    const worktreesBefore = execFileSync("git", ["worktree", "list"], { cwd: repo, encoding: "utf8" });
    const out: string[] = [];
    const err: string[] = [];
    expect(await compare(["HEAD", "--dry-run", "--rounds", "4", "--repetitions", "2"], (l) => out.push(l), (l) => err.push(l))).toBe(0);
    expect(err).toEqual([]);
    expect(out[0]).toMatch(new RegExp(`^previous: HEAD \\(${head.slice(0, 7)}\\) "`));
    expect(out).toContain("each run: node dist/cli.js run --repetitions 2 --quiet --results-dir <temporary folder>, from its own tree");
    expect(out.slice(-4)).toEqual(["round 1 (warm-up, discarded): previous, then current", "round 2: current, then previous", "round 3: previous, then current", "round 4: current, then previous"]);
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith("crashlab-bench-compare-"))).toEqual(before);
    expect(execFileSync("git", ["worktree", "list"], { cwd: repo, encoding: "utf8" })).toBe(worktreesBefore);
  });

  it("exits 2 with one line for a bad ref", async () => {
    const err: string[] = [];
    expect(await compare(["no-such-ref-anywhere", "--dry-run"], () => {}, (l) => err.push(l))).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^pnpm bench compare: "no-such-ref-anywhere" is not a commit in /);
  });

  it("calls the same commit on both sides an A/A comparison", () => {
    const plan = planCompare({ ref: "HEAD", rounds: 2, repetitions: 1, dryRun: true }, repo);
    const lines = describePlan({ ...plan, current: { ...plan.current, dirty: false } });
    expect(lines).toContain("both are the same commit: an A/A comparison, which shows this machine's noise");
  });
});

describe("whether this tree's dist/ is built from its sources", () => {
  it("is missing, stale or fresh by modification times", () => {
    const root = mkdtempSync(join(tmpdir(), "crashlab-bench-dist-"));
    try {
      mkdirSync(join(root, "src", "core"), { recursive: true });
      writeFileSync(join(root, "src", "core", "a.ts"), "");
      expect(distState(root)).toBe("missing");
      mkdirSync(join(root, "dist"));
      writeFileSync(join(root, "dist", "cli.js"), "");
      utimesSync(join(root, "src", "core", "a.ts"), 1000, 1000);
      utimesSync(join(root, "dist", "cli.js"), 2000, 2000);
      expect(distState(root)).toBe("fresh");
      utimesSync(join(root, "src", "core", "a.ts"), 3000, 3000);
      expect(distState(root)).toBe("stale");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the summary", () => {
  const run = (build: "previous" | "current", round: number, wall_s: number, cpu_s: number, rss: number): RunMeasure => ({
    build,
    round,
    wall_ms: wall_s * 1000,
    user_ms: cpu_s * 800,
    system_ms: cpu_s * 200,
    peak_rss_mb: rss,
    timeline_ms: 6_713_000,
    trials: 360,
    statuses: { passed: 360 },
  });
  const measured = [
    run("previous", 2, 30, 50, 560),
    run("current", 2, 25, 44, 540),
    run("current", 3, 24, 43, 545),
    run("previous", 3, 29, 49, 570),
    run("previous", 4, 31, 51, 565),
    run("current", 4, 26, 45, 550),
    run("current", 5, 25.5, 44, 548),
    run("previous", 5, 28, 48, 575),
  ];

  it("pairs the runs by round and summarizes each build", () => {
    const s = summarize(measured);
    expect(s.previous.wall_s).toEqual({ n: 4, median: 29.5, min: 28, max: 31, q1: 28.75, q3: 30.25 });
    expect(s.current.peak_rss_mb.median).toBe(546.5);
    // The median of each run's own ratio (the middle two runs took 25 and 25.5 s), not timeline ÷ median wall.
    expect(s.current.x_timeline.median).toBeCloseTo((6713 / 25 + 6713 / 25.5) / 2, 9);
    expect(s.wall.per_round).toEqual([30 / 25, 29 / 24, 31 / 26, 28 / 25.5]);
    expect(s.cpu.per_round[0]).toBeCloseTo(50 / 44, 12);
    expect(s.same_work).toBe(true);
  });

  it("prints the medians, the ratio with its interval and its method, and the runs' exit", () => {
    const plan = planCompare({ ref: "HEAD", rounds: 5, repetitions: 5, dryRun: false }, repo);
    const text = formatSummary(plan, summarize(measured)).join("\n");
    expect(text).toContain("4 measured rounds per build (round 1 was the warm-up)");
    expect(text).toMatch(/wall \(s\)\n {4}previous \w{7} +29\.5 {2}\[28\.0–31\.0\] {2}\(IQR 28\.8–30\.3\)/);
    // Median of 30/25, 29/24, 31/26, 28/25.5; from four rounds the interval reaches their smallest and largest.
    expect(text).toContain("wall previous ÷ current: 1.196 (median of 4 paired rounds; 95% interval 1.098–1.208); per round 1.200, 1.208, 1.192, 1.098");
    expect(text).toContain("→ the current build's wall time is lower: the whole interval is above 1 (from 4 paired rounds: a hint, not a claim)");
    expect(text).toContain("percentile bootstrap over the paired rounds, 10,000 resamples of whole rounds");
    expect(text).toContain("every run exited 0 (its gates passed): 10 runs, warm-up included");
    expect(text).not.toContain("different work");
    expect(text).not.toContain("not quiet");
  });

  it("says when the machine was busy beyond the comparison's own runs", () => {
    expect(loadWarning({ cores: 2, at_start: 0.3, max_after_round: 2.8 })).toBeNull();
    expect(loadWarning({ cores: 2, at_start: 1.6, max_after_round: 2.5 })).toMatch(/^ {2}the machine was not quiet \(load average 1\.6 at the start, up to 2\.5 after a round, on 2 cores/);
    expect(loadWarning({ cores: 2, at_start: 0.2, max_after_round: 6 })).toContain("up to 6.0 after a round");
    const plan = planCompare({ ref: "HEAD", rounds: 5, repetitions: 5, dryRun: false }, repo);
    expect(formatSummary(plan, summarize(measured), { cores: 2, at_start: 4, max_after_round: 9 }).join("\n")).toContain("other work moved these numbers; measure again when it is idle");
  });

  it("claims nothing extra from eight rounds or more", () => {
    const plan = planCompare({ ref: "HEAD", rounds: 9, repetitions: 5, dryRun: false }, repo);
    const many = Array.from({ length: 8 }, (_, i) => [run("previous", i + 2, 30 + (i % 3), 50, 560), run("current", i + 2, 25 + (i % 2), 44, 540)]).flat();
    const text = formatSummary(plan, summarize(many)).join("\n");
    expect(text).toContain("median of 8 paired rounds; 95% interval");
    expect(text).toContain("→ the current build's wall time is lower: the whole interval is above 1\n");
    expect(text).not.toContain("too narrow");
  });

  it("prints no interval from fewer than three rounds, and flags builds that ran different work", () => {
    const plan = planCompare({ ref: "HEAD", rounds: 3, repetitions: 1, dryRun: false }, repo);
    const few = measured.filter((m) => m.round <= 3);
    few[0] = { ...few[0]!, trials: 350, timeline_ms: 6_500_000 };
    const text = formatSummary(plan, summarize(few)).join("\n");
    expect(text).toMatch(/wall previous ÷ current: \d\.\d{3} \(median of 2 paired rounds\)/);
    expect(text).toContain("(no interval from 2 paired rounds: it takes 3 measured rounds at least, --rounds 4)");
    expect(text).not.toContain("→");
    expect(text).toContain("the builds ran different work");
  });
});
