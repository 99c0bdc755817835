import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/** A WALK run through the real bin prints no runtime warning (DEP0005 came from concatPcm). */
describe("no deprecation warning on a WALK run", () => {
  it("runs a WALK case with a clean stderr apart from progress", () => {
    const out = mkdtempSync(join(tmpdir(), "warn-"));
    const child = spawnSync(process.execPath, ["--import", "tsx", "src/cli.ts", "run", "--example", "harbor_003_clean", "--results-dir", out], {
      cwd: resolve(import.meta.dirname, ".."),
      env: { ...process.env, OPENAI_API_KEY: "" },
      encoding: "utf8",
    });
    expect(child.status).toBe(0);
    expect(child.stderr).toMatch(/PASS\s+harbor_003_clean#1/);
    expect(child.stderr).not.toMatch(/Warning|DEP\d{4}/);
  }, 60_000);
});
