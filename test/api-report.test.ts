import { describe, expect, it } from "vitest";
import { apiEntries, readApiReport, renderApiReport } from "./api-report";

/** The lines of `expected` and `actual` that differ, as a unified-style list: `-` checked in, `+` now. */
function lineDiff(expected: string, actual: string): string {
  const a = expected.split("\n");
  const b = actual.split("\n");
  // Longest common subsequence over lines; the reports are a few thousand lines, well within reach.
  const n = a.length;
  const m = b.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) (i++, j++);
    else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  return out.join("\n");
}

describe("the API report of crashlab/alpha", () => {
  it("api/alpha.api.md lists every exported name with its kind and signature, as the sources export them", { timeout: 120_000 }, () => {
    const actual = renderApiReport(apiEntries());
    const expected = readApiReport();
    if (actual !== expected)
      expect.fail(`the public surface of crashlab/alpha changed; if that is meant, run \`pnpm api:report\` and commit api/alpha.api.md.\n${lineDiff(expected, actual)}`);
  });

  it("shows a changed surface as the lines that differ", () => {
    expect(lineDiff("a\nb\nc", "a\nc\nd")).toBe("- b\n+ d");
  });
});
