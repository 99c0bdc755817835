import { describe, expect, it } from "vitest";
import { conditionBreakdown, matchesWhere, parseWhere } from "../src/core/walk/breakdown";

describe("per-condition pass rates", () => {
  it("counts trials and passes per condition in preset order, with a 95% Wilson interval", () => {
    const rows = [
      ...Array.from({ length: 4 }, () => ({ condition: "noisy", status: "passed" })),
      { condition: "noisy", status: "failed" },
      { condition: "clean", status: "passed" },
      { condition: "clean", status: "passed" },
      { condition: "telephony", status: "infrastructure_error" },
      { condition: "telephony", status: "passed" },
      { condition: "a_custom_room", status: "inconclusive" },
    ];
    const table = conditionBreakdown(rows);
    expect(table.map((r) => r.condition)).toEqual(["clean", "noisy", "telephony", "a_custom_room"]);
    const noisy = table[1]!;
    expect(noisy).toMatchObject({ trials: 5, passes: 4, pass_rate: 0.8, infrastructure_errors: 0 });
    // Wilson 95% for 4/5: centre (0.8 + z²/10)/(1 + z²/5), z = 1.96.
    expect(noisy.wilson_95!.low).toBeCloseTo(0.3755, 4);
    expect(noisy.wilson_95!.high).toBeCloseTo(0.9638, 4);
    expect(table[0]).toMatchObject({ trials: 2, passes: 2, pass_rate: 1 });
    expect(table[0]!.wilson_95!.high).toBe(1);
    expect(table[2]).toMatchObject({ trials: 2, passes: 1, pass_rate: 0.5, infrastructure_errors: 1 });
    expect(table[3]).toMatchObject({ trials: 1, passes: 0, pass_rate: 0 });
    expect(conditionBreakdown([])).toEqual([]);
  });
});

describe("--where filters", () => {
  const metadata = { accent: "Scottish", language: "en", device: { microphone: "Headset" }, takes: 2, tags: ["quiet", "office"], reviewed: true };
  it("matches a key's value case-insensitively", () => {
    expect(matchesWhere(metadata, "accent=scottish")).toBe(true);
    expect(matchesWhere(metadata, "accent=SCOTTISH")).toBe(true);
    expect(matchesWhere(metadata, "accent=irish")).toBe(false);
    expect(matchesWhere(metadata, " language = en ")).toBe(true);
  });
  it("reads numbers, booleans, arrays and dotted paths; a missing key never matches", () => {
    expect(matchesWhere(metadata, "takes=2")).toBe(true);
    expect(matchesWhere(metadata, "reviewed=true")).toBe(true);
    expect(matchesWhere(metadata, "tags=office")).toBe(true);
    expect(matchesWhere(metadata, "device.microphone=headset")).toBe(true);
    expect(matchesWhere(metadata, "device=headset")).toBe(false);
    expect(matchesWhere(metadata, "microphone=headset")).toBe(false);
    expect(matchesWhere(undefined, "accent=scottish")).toBe(false);
    expect(matchesWhere({ "a.b": "x" }, "a.b=x")).toBe(true);
  });
  it("refuses an expression that is not key=value", () => {
    for (const bad of ["accent", "=scottish", "accent=", ""]) expect(() => parseWhere(bad)).toThrow(/--where takes key=value \(for example accent=scottish/);
    expect(parseWhere("note=a=b")).toEqual({ key: "note", value: "a=b" });
  });
});
