import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { ResultsFile } from "../src/core/record/results";
import { pcm16DurationMs } from "../src/core/audio/pcm";
import { roundMs } from "../src/core/timeline/metrics";

/** Results move between machines (no absolute paths) and timings carry no float noise. */
const repo = resolve(import.meta.dirname, "..");

async function runCli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {} });
  return { code, stdout, stderr };
}

/** Every number under a key that names a time in ms, anywhere in a JSON value. */
function timings(value: unknown, key = "", out: Array<[string, number]> = []): Array<[string, number]> {
  if (typeof value === "number" && (/_ms$/.test(key) || key === "cumulative" || key === "maximum")) out.push([key, value]);
  else if (Array.isArray(value)) value.forEach((v) => timings(v, key, out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) timings(v, k, out);
  return out;
}

describe("portable paths and clean figures", () => {
  it("records a WALK recording relative to its dataset, and the dataset relative to the package", async () => {
    const out = mkdtempSync(join(tmpdir(), "portable-"));
    const r = await runCli(["run", "--example", "harbor_003_clean", "--example", "harbor_024_telephony", "--example", "harbor_001", "--results-dir", out, "--quiet"]);
    expect(r.code).toBe(0);
    const dir = join(out, readdirSync(out)[0]!);
    const text = readFileSync(join(dir, "results.json"), "utf8");
    const doc = ResultsFile.parse(JSON.parse(text));
    const walkTrial = doc.trials.find((t) => t.case_id === "harbor_003_clean")!;
    expect(walkTrial.input.recording).toMatchObject({ path: "audio/harbor_003_clean.wav", dataset: "data/walk.json", condition: "clean" });
    // No machine path anywhere in the results.
    expect(text).not.toContain(repo);
    // Timings have at most three decimals (a thousandth of a millisecond), and whole chunks stay whole.
    const noisy = timings(doc).filter(([, v]) => roundMs(v) !== v);
    expect(noisy).toEqual([]);
    for (const t of doc.trials) if (t.input.duration_ms !== null) expect(t.input.duration_ms % 20).toBe(0);
  });

  it("computes whole-chunk durations exactly", () => {
    // (96480 / 2 / 24000) * 1000 is 2009.9999999999998 in floating point; the order used here is exact.
    expect(pcm16DurationMs(96_480)).toBe(2010);
    expect(pcm16DurationMs(192_960)).toBe(4020);
    expect(roundMs(2104.666666666666)).toBe(2104.667);
    expect(roundMs(4019.9999999999995)).toBe(4020);
  });
});
