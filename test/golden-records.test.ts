import { describe, expect, it } from "vitest";
import { changedTrials, goldenDigests, readGolden } from "./golden-records";

/**
 * Trial records stay byte-identical unless a change means to alter them (test/golden-records.ts says
 * what is covered). When this fails on purpose, regenerate with
 * `pnpm exec tsx scripts/golden-records.ts --write` and commit the fixture with the change.
 */
describe("golden trial records", () => {
  it("are unchanged for the bundled cases (audio in both delegation modes, text) and every early ending", async () => {
    const expected = readGolden();
    const actual = await goldenDigests();
    expect(Object.keys(expected).length).toBeGreaterThan(150);
    expect(changedTrials(expected, actual)).toEqual([]);
  }, 600_000);

  it("names each trial that changed, appeared or went missing", () => {
    const before = { "a/x#1": "1", "a/y#1": "2", "b/z#1": "3" };
    expect(changedTrials(before, { "a/x#1": "1", "a/y#1": "9", "c/w#1": "4" })).toEqual(["a/y#1: changed", "b/z#1: missing", "c/w#1: new"]);
    expect(changedTrials(before, { ...before })).toEqual([]);
  });
});
