/**
 * The bad-input corpus (test/fixtures/bad/cases.json): every case is a mistake a user can make — in a
 * dataset, a recording, a package or its PLAN settings, a flag, or the environment — driven through the
 * CLI's main(). Each must end with the documented exit code (2 unless the case says otherwise), one
 * paragraph on stderr that names what it should (file, scenario, field), no stack trace, nothing on
 * stdout, and nothing written: no results folder, no file changed. Dataset cases run three ways —
 * `validate <dataset>`, `validate --package` and `run` — and the package-backed two must say the same.
 */
import { execFileSync } from "node:child_process";
import { closeSync, copyFileSync, existsSync, ftruncateSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { tones } from "./walk-signal";

const repo = resolve(import.meta.dirname, "..");
const fixtures = join(repo, "test/fixtures/bad");

interface Case {
  id: string;
  argv?: string[];
  /** A dataset case: the fixture copied to `<dir>/d.json` (null: the setup makes d.json itself). */
  dataset?: string | null;
  kind?: "crawl" | "walk";
  /** Schema-valid; only the package's world refuses it. */
  world_only?: boolean;
  setup?: Setup[];
  env?: Record<string, string>;
  code?: number;
  expect: string[];
  /** What the message must not hold (a secret it was given). */
  absent?: string[];
}

type Setup =
  | { text: [string, string] }
  | { mkdir: string }
  | { fifo: string }
  | { symlink: [string, string] }
  | { sparse: [string, number] }
  | { wav: [string, WavSpec] };

interface WavSpec {
  channels?: number;
  rate?: number;
  bits?: number;
  /** WAVE format code: 1 PCM, 3 float. */
  format?: number;
  frames?: number;
  /** Cut the file to this many bytes. */
  cut?: number;
  /** One byte more of data than whole samples hold. */
  odd?: boolean;
}

const cases = JSON.parse(readFileSync(join(fixtures, "cases.json"), "utf8")) as Case[];

/** Files and their sizes under a folder, without following links or reading special files. */
function snapshot(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      const st = lstatSync(path);
      out.push(`${path.slice(dir.length)} ${st.isDirectory() ? "dir" : st.isSymbolicLink() ? "link" : st.size} ${st.mtimeMs}`);
      if (st.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out;
}

function wav(spec: WavSpec): Buffer {
  const channels = spec.channels ?? 1;
  const rate = spec.rate ?? 24_000;
  const bits = spec.bits ?? 16;
  const frames = spec.frames ?? 2400;
  const samples = tones([220, 660], 6000, frames / 24_000);
  const dataBytes = frames * channels * (bits / 8) + (spec.odd ? 1 : 0);
  const out = Buffer.alloc(44 + dataBytes);
  out.write("RIFF", 0);
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write("WAVEfmt ", 8);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(spec.format ?? 1, 20);
  out.writeUInt16LE(channels, 22);
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE((rate * channels * bits) / 8, 28);
  out.writeUInt16LE((channels * bits) / 8, 32);
  out.writeUInt16LE(bits, 34);
  out.write("data", 36);
  out.writeUInt32LE(dataBytes, 40);
  if (bits === 16) for (let i = 0; i < frames * channels; i++) out.writeInt16LE(samples[Math.floor(i / channels) % samples.length]!, 44 + i * 2);
  return spec.cut !== undefined ? out.subarray(0, spec.cut) : out;
}

/** `fill` expands {repo}, {fixtures} and {dir} in a link's target (a link out of the case's folder needs an absolute one). */
function applySetup(dir: string, steps: Setup[], fill: (text: string) => string = (t) => t): void {
  for (const step of steps) {
    const at = (p: string) => {
      const path = join(dir, p);
      mkdirSync(join(path, ".."), { recursive: true });
      return path;
    };
    if ("text" in step) writeFileSync(at(step.text[0]), step.text[1]);
    else if ("mkdir" in step) mkdirSync(at(step.mkdir), { recursive: true });
    else if ("fifo" in step) execFileSync("mkfifo", [at(step.fifo)]);
    else if ("symlink" in step) symlinkSync(fill(step.symlink[1]), at(step.symlink[0]));
    else if ("wav" in step) writeFileSync(at(step.wav[0]), wav(step.wav[1]));
    else {
      const fd = openSync(at(step.sparse[0]), "w");
      ftruncateSync(fd, step.sparse[1]); // sparse: no disk used
      closeSync(fd);
    }
  }
}

function datasetPackage(dir: string, kind: "crawl" | "walk"): string {
  const pkg = join(dir, "pkg");
  mkdirSync(pkg);
  writeFileSync(
    join(pkg, "evaluations.ts"),
    // Every case fails before a session starts, so the target is a stand-in that would refuse to start.
    `import { ${kind}, definePlan, loadDataset } from "crashlab/alpha";
import { restaurantWorld } from ${JSON.stringify(join(repo, "crashlab/worlds/restaurant.ts"))};
const standIn = {
  kind: "stand-in", accepts: ["text", "audio"] as const,
  describe: () => ({ kind: "stand-in", instructions: "", tools: [] }),
  session: () => { throw new Error("the corpus never starts a session"); },
  start: () => { throw new Error("the corpus never starts a session"); },
};
export const PLAN = definePlan({ name: "corpus", targets: { text_restaurant: standIn as any }, cases: ${kind}(loadDataset(new URL("../d.json", import.meta.url)), { world: restaurantWorld }) });
`,
  );
  return pkg;
}

async function cli(argv: string[], cwd: string, env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  // main() must return for bad input, never throw: a throw fails the case here.
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, alpha: alpha as Record<string, unknown>, env });
  return { code, stdout, stderr };
}

function expectOneClearParagraph(result: { code: number; stdout: string; stderr: string }, code: number, expected: string[], label: string): void {
  expect(result.code, `${label}: exit code (stderr: ${result.stderr})`).toBe(code);
  expect(result.stdout, label).toBe("");
  expect(result.stderr, label).toMatch(/^crashlab( generate-audio)?: /);
  expect(result.stderr.trimEnd().split("\n"), `${label}: one paragraph`).toHaveLength(1);
  expect(result.stderr, `${label}: no stack trace`).not.toMatch(/\n\s+at |internal error|\bat .*\.ts:\d+:\d+\)/);
  for (const part of expected) expect(result.stderr, label).toContain(part);
}

const fixturesBefore = snapshot(fixtures);
afterAll(() => {
  // Nothing was written next to the corpus packages either (results, .audio_cache, …).
  expect(snapshot(fixtures)).toEqual(fixturesBefore);
});

describe("the bad-input corpus", () => {
  it("holds at least 100 cases across datasets, recordings, packages, PLAN settings, flags and the environment", () => {
    const kinds = (prefix: string) => cases.filter((c) => c.id.startsWith(prefix)).length;
    expect(cases.length).toBeGreaterThanOrEqual(100);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    expect(kinds("dataset/")).toBeGreaterThan(50);
    expect(cases.filter((c) => c.kind === "walk").length).toBeGreaterThan(20);
    expect(kinds("package/")).toBeGreaterThan(20);
    expect(kinds("flag/") + kinds("list/") + kinds("validate/") + kinds("generate/") + kinds("command/")).toBeGreaterThan(80);
    expect(kinds("env/")).toBeGreaterThan(5);
    // The README states the corpus size; this keeps the two equal.
    expect(readFileSync(join(repo, "README.md"), "utf8")).toContain(`(\`test/fixtures/bad/\`, ${cases.length} cases:`);
  });

  it.each(cases.map((c) => [c.id, c] as const))("%s", async (_id, c) => {
    const dir = mkdtempSync(join(tmpdir(), "crashlab-bad-"));
    const fill = (text: string) => text.replaceAll("{dir}", dir).replaceAll("{fixtures}", fixtures).replaceAll("{ok}", join(fixtures, "ok-package")).replaceAll("{repo}", repo);
    if (c.dataset) copyFileSync(join(fixtures, c.dataset), join(dir, "d.json"));
    applySetup(dir, c.setup ?? [], fill);
    const expected = c.expect.map(fill);
    const code = c.code ?? 2;

    if (c.dataset !== undefined) {
      const pkg = datasetPackage(dir, c.kind ?? "crawl");
      const before = snapshot(dir);
      const alone = await cli(["validate", join(dir, "d.json")], dir);
      if (c.world_only) {
        // The schema alone cannot see it; the world can.
        expect(alone.code, alone.stderr).toBe(0);
        expect(alone.stdout).toContain("checked without a world (add --package <package>");
      } else expectOneClearParagraph(alone, code, expected, "validate <dataset>");
      const ran = await cli(["run", "--package", pkg, "--target", "text_restaurant", "--results-dir", join(dir, "out")], dir);
      expectOneClearParagraph(ran, code, expected, "run");
      expect(ran.stderr).toContain(join(dir, "d.json"));
      if (c.world_only || c.kind === "walk") {
        const validated = await cli(["validate", "--package", pkg], dir);
        expectOneClearParagraph(validated, code, expected, "validate --package");
        expect(validated.stderr).toBe(ran.stderr);
      }
      expect(snapshot(dir)).toEqual(before);
    } else {
      const before = snapshot(dir);
      const result = await cli(c.argv!.map(fill), dir, c.env ?? {});
      expectOneClearParagraph(result, code, expected, c.id);
      for (const secret of c.absent ?? []) expect(result.stderr, c.id).not.toContain(secret);
      expect(snapshot(dir)).toEqual(before);
    }
    expect(existsSync(join(dir, "out")) && lstatSync(join(dir, "out")).isDirectory()).toBe(false);
    expect(existsSync(join(dir, "results"))).toBe(false);
  });
});
