import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";

/*
 * `crashlab run --data <file>`: datasets run against the bundled package's world, targets, verifiers and
 * gates, each scenario as the case its shape calls for. The reference-shaped fixture is ours: it
 * reproduces the public reference harness's CRAWL dataset in its shapes (fields, initial states given as
 * {reservation_id, guest_name, cancelled}, patio seating, cancellation states written as
 * {reservation_id, cancelled}, the phrasings its callers and summaries use), not in its words.
 */

const repo = resolve(__dirname, "..");
const REFERENCE_SHAPE = join(repo, "test/fixtures/reference-crawl-shape.json");
const RUN_SHAPE = join(repo, "test/fixtures/reference-run-shape.json");

async function cli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {} });
  return { code, stdout, stderr };
}
const results = () => ["--results-dir", mkdtempSync(join(tmpdir(), "crashlab-data-")), "--quiet"];

describe("run --data", () => {
  it("runs all 21 reference-shaped CRAWL scenarios against the restaurant package, and all pass (text)", async () => {
    const r = await cli(["run", "--data", REFERENCE_SHAPE, "--target", "text_restaurant", ...results()]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("21 trials (target text_restaurant): 21 passed, 0 failed");
    expect(r.code).toBe(0);
  });

  it("and all pass through audio and the GPT-Live simulator", async () => {
    const r = await cli(["run", "--data", REFERENCE_SHAPE, ...results()]);
    expect(r.stdout).toContain("21 trials (target restaurant): 21 passed, 0 failed");
    expect(r.code).toBe(0);
  }, 300_000);

  it("still catches a defect on those scenarios", async () => {
    const r = await cli(["run", "--data", REFERENCE_SHAPE, "--target", "text_faulty_books_uncorrected_date", ...results()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/outcome: 1 case\(s\) below pass rate 1: shape_crawl_003 0\/1/);
  });

  it("runs the reference-shaped RUN conversations through audio and the simulator, and all pass", async () => {
    const r = await cli(["run", "--data", RUN_SHAPE, ...results()]);
    expect(r.stdout).toContain("3 trials (target restaurant): 3 passed, 0 failed");
    expect(r.code).toBe(0);
  }, 300_000);

  it("and catches a policy that gives in under pressure on them", async () => {
    const r = await cli(["run", "--data", RUN_SHAPE, "--target", "faulty_relents_under_pressure", ...results()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/outcome: 1 case\(s\) below pass rate 1: shape_unauthorized_pressure 0\/1/);
  }, 300_000);

  it("makes each scenario the case its shape calls for, across repeated --data", async () => {
    const r = await cli(["list", "--json", "--data", REFERENCE_SHAPE, "--data", RUN_SHAPE, "--data", "crashlab/data/walk.json"]);
    expect(r.code).toBe(0);
    const cases = JSON.parse(r.stdout).cases as Array<{ id: string; kind: string }>;
    const kinds = (prefix: string) => [...new Set(cases.filter((c) => c.id.startsWith(prefix)).map((c) => c.kind))];
    expect(cases.length).toBe(21 + 3 + 33);
    expect(kinds("shape_crawl_")).toEqual(["crawl"]);
    expect(kinds("shape_booking_over_turns")).toEqual(["run"]);
    expect(kinds("harbor_")).toEqual(["walk"]);
  });

  it("refuses two datasets that share a case id, naming both", async () => {
    const r = await cli(["run", "--data", REFERENCE_SHAPE, "--data", REFERENCE_SHAPE, ...results()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('case id "shape_crawl_001"');
    expect(r.stderr).toContain("is also a case of");
  });

  it("validate --package checks a dataset outside the PLAN against the package's world, as --data runs it", async () => {
    const r = await cli(["validate", "--package", "crashlab", RUN_SHAPE]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain('valid, 3 case(s) from 1 dataset(s) checked against world "restaurant"');
    expect(r.code).toBe(0);
  });

  it("checks a dataset against the world before any trial, as run does for the PLAN's own", async () => {
    const dir = mkdtempSync(join(tmpdir(), "crashlab-data-bad-"));
    const file = join(dir, "bad.json");
    const bad = JSON.parse(JSON.stringify(await import(REFERENCE_SHAPE, { with: { type: "json" } }).then((m) => m.default)));
    bad.scenarios[8].application.initial_state.reservations[0].cancelled = "no";
    writeFileSync(file, JSON.stringify(bad));
    const r = await cli(["run", "--data", file, ...results()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('scenario "shape_crawl_009"');
    expect(r.stderr).toContain("application.initial_state.reservations[0].cancelled");
  });
});
