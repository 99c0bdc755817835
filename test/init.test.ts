import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { SCAFFOLD_PINS } from "../src/core/init/versions";

/** `crashlab init` in-process: the scaffold runs, its defect is caught, and nothing is ever overwritten. */
async function cli(argv: string[], cwd: string) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, alpha: alpha as Record<string, unknown>, env: {} });
  return { code, stdout, stderr };
}

interface Trial {
  case_id: string;
  case_kind: string;
  status: string;
  assessments: Array<{ verifier: string; status: string }>;
}

const fresh = () => mkdtempSync(join(tmpdir(), "crashlab-init-"));

describe("crashlab init", () => {
  it("scaffolds a package whose assistant passes and whose faulty variant fails on its own check", async () => {
    const dir = fresh();
    const init = await cli(["init", "shop"], dir);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("crashlab/README.md");
    const root = join(dir, "shop");
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect(pkg).toMatchObject({ type: "module", scripts: { eval: "crashlab run", typecheck: "tsc --noEmit" }, dependencies: { crashlab: "0.1.0", zod: SCAFFOLD_PINS.zod }, devDependencies: { typescript: SCAFFOLD_PINS.typescript } });
    expect(JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8")).compilerOptions.moduleResolution).toBe("Bundler");

    const ok = await cli(["run", "--results-dir", join(dir, "results"), "--quiet", "--target", "assistant_text"], root);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("4 passed, 0 failed");

    const faulty = await cli(["run", "--results-dir", join(dir, "results"), "--quiet", "--target", "faulty_text"], root);
    expect(faulty.code).toBe(1);
    expect(faulty.stdout).toMatch(/gate required FAIL\s+one_booking_per_call/);
  });

  it("scaffolds a CRAWL, a WALK (with its recording) and a RUN case that pass over GPT-Live offline, and a defect each catches", async () => {
    const dir = fresh();
    expect((await cli(["init"], dir)).code).toBe(0);
    const walk = JSON.parse(readFileSync(join(dir, "crashlab/data/walk.json"), "utf8"));
    const recording = walk.scenarios[0].input.recordings[0];
    expect(recording).toMatchObject({ condition: "telephony", metadata: { source_scenario: "shop_book_service", synthesizer: { provider: "espeak-ng" } } });
    const wav = readFileSync(join(dir, "crashlab/data", recording.path));
    expect(wav.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(wav.readUInt32LE(24)).toBe(24_000);
    expect(wav.length).toBeGreaterThan(24_000 * 2);

    const results = join(dir, "results");
    const ok = await cli(["run", "--results-dir", results, "--quiet", "--json"], dir);
    expect(ok.code, ok.stderr).toBe(0);
    const run = JSON.parse(ok.stdout);
    const kinds = Object.fromEntries(run.trials.map((t: Trial) => [t.case_id, `${t.case_kind} ${t.status}`]));
    expect(kinds).toEqual({
      shop_book_service: "crawl passed",
      shop_check_day: "crawl passed",
      shop_missing_name: "crawl passed",
      shop_hours: "crawl passed",
      shop_book_service_telephony: "walk passed",
      shop_call_book_service: "run passed",
    });

    const faulty = await cli(["run", "--results-dir", results, "--quiet", "--json", "--target", "faulty"], dir);
    expect(faulty.code).toBe(1);
    const caught = JSON.parse(faulty.stdout).trials.filter((t: Trial) => t.assessments.some((a) => a.verifier === "one_booking_per_call" && a.status === "failed"));
    expect(caught.map((t: Trial) => t.case_id).sort()).toEqual(["shop_book_service", "shop_book_service_telephony", "shop_call_book_service"]);
  });

  it("explains itself with --help and writes nothing", async () => {
    const dir = fresh();
    const help = await cli(["init", "--help"], dir);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^crashlab init — /);
    expect(help.stdout).toContain("Nothing is ever overwritten");
    expect(existsSync(join(dir, "crashlab"))).toBe(false);
  });

  it("merges into an existing package.json and leaves an existing tsconfig.json alone", async () => {
    const dir = fresh();
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "mine", scripts: { test: "vitest" }, devDependencies: { typescript: "5.8.0" } }));
    writeFileSync(join(dir, "tsconfig.json"), "{}\n");
    const init = await cli(["init"], dir);
    expect(init.code).toBe(0);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg.scripts).toEqual({ test: "vitest", eval: "crashlab run", typecheck: "tsc --noEmit -p crashlab" });
    expect(pkg.devDependencies.typescript).toBe("5.8.0");
    expect(pkg.dependencies.zod).toBe(SCAFFOLD_PINS.zod);
    expect(readFileSync(join(dir, "tsconfig.json"), "utf8")).toBe("{}\n");
    expect(existsSync(join(dir, "crashlab/tsconfig.json"))).toBe(true);
  });

  it("refuses to overwrite any scaffold file, writing nothing", async () => {
    const dir = fresh();
    mkdirSync(join(dir, "crashlab"));
    writeFileSync(join(dir, "crashlab/evaluations.ts"), "// mine\n");
    const init = await cli(["init"], dir);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain("already has crashlab/evaluations.ts");
    expect(init.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, "package.json"))).toBe(false);
    expect(readFileSync(join(dir, "crashlab/evaluations.ts"), "utf8")).toBe("// mine\n");
  });

  it("says in one paragraph why the machine refused a file, and leaves nothing behind", async () => {
    const dir = fresh();
    writeFileSync(join(dir, "notes.txt"), "mine\n");
    const under = await cli(["init", "notes.txt/sub"], dir);
    expect(under.code).toBe(2);
    expect(under.stderr).toMatch(/^crashlab: could not write .*notes\.txt\/sub\/crashlab\/README\.md: part of that path is a file, not a folder; nothing was written — move that file away or initialise another folder\n$/);

    // crashlab/ is a file: the first folder fails; package.json (written last) is never touched.
    const other = fresh();
    writeFileSync(join(other, "crashlab"), "not a folder\n");
    writeFileSync(join(other, "package.json"), '{"name":"mine"}\n');
    const blocked = await cli(["init"], other);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr.trim().split("\n")).toHaveLength(1);
    expect(blocked.stderr).toContain("nothing was written");
    expect(readdirSync(other).sort()).toEqual(["crashlab", "package.json"]);
    expect(readFileSync(join(other, "package.json"), "utf8")).toBe('{"name":"mine"}\n');
    expect(readFileSync(join(other, "crashlab"), "utf8")).toBe("not a folder\n");
  });

  it("pins what this crashlab is built and type-checked with", () => {
    const ours = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8"));
    const installed = (name: string) => JSON.parse(readFileSync(join(__dirname, "..", "node_modules", name, "package.json"), "utf8")).version;
    expect(SCAFFOLD_PINS.zod).toBe(installed("zod"));
    expect(SCAFFOLD_PINS.typescript).toBe(installed("typescript"));
    expect(SCAFFOLD_PINS["@types/node"]).toBe(installed("@types/node"));
    expect(ours.dependencies.zod).toBe(`^${SCAFFOLD_PINS.zod}`);
  });
});
