import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DatasetError, loadDataset, parseDataset } from "../src/core/dataset/load";

const scenario = (over: Record<string, unknown> = {}) => ({
  id: "harbor_001",
  title: "Book",
  type: "booking",
  interaction: "single_turn",
  tags: ["booking"],
  input: { text: "Book a table for Maya on August 6 at 7 p.m. for two." },
  application: { initial_state: {} },
  expected: { answer: "Confirms.", delegation: "required", tools: { required: [{ name: "create_reservation", arguments: { guest_name: "Maya" } }], prohibited: [] }, state: { reservation_created: true } },
  ...over,
});

function errorOf(raw: unknown): DatasetError {
  try {
    parseDataset(raw, "data/x.json");
  } catch (e) {
    expect(e).toBeInstanceOf(DatasetError);
    return e as DatasetError;
  }
  throw new Error("expected a DatasetError");
}

describe("dataset loader (docs/datasets.md)", () => {
  it("accepts a portable dataset and fills defaults", () => {
    const d = parseDataset({ schema_version: "1.0", scenarios: [scenario()] }, "x.json");
    expect(d.scenarios[0]!.expected.tools.required[0]!.status).toBe("completed");
    expect(d.scenarios[0]!.expected.criteria).toEqual([]);
  });

  it("accepts the seed's harbor_003 example unmodified (no tags, no prohibited list)", () => {
    const seedExample = {
      schema_version: "1.0",
      scenarios: [
        {
          id: "harbor_003",
          title: "Correct the requested booking date",
          type: "booking",
          interaction: "single_turn",
          tags: ["booking", "correction"],
          input: { text: "Book a table for Maya on August 7—sorry, August 6—at 7 p.m. for two." },
          application: { initial_state: {} },
          expected: {
            answer: "Confirm August 6 rather than August 7.",
            delegation: "required",
            tools: { required: [{ name: "create_reservation", arguments: { guest_name: "Maya", date: "2026-08-06" } }] },
            state: { reservation_created: true, date: "2026-08-06" },
          },
        },
      ],
    };
    expect(parseDataset(seedExample, "x.json").scenarios).toHaveLength(1);
  });

  it("rejects unknown fields with the scenario id and the JSON path", () => {
    const e = errorOf({ schema_version: "1.0", scenarios: [scenario(), scenario({ id: "harbor_002", expected: { answer: "x", tool: [] } })] });
    expect(e.message).toContain('Invalid dataset data/x.json: scenario "harbor_002", field scenarios[1].expected: unknown field(s) "tool"');
    expect(e.message).toContain("crashlab validate");
    expect(e.problems[0]).toMatchObject({ scenario_id: "harbor_002", path: "scenarios[1].expected" });
  });

  it("rejects duplicate ids case-insensitively", () => {
    const e = errorOf({ schema_version: "1.0", scenarios: [scenario(), scenario({ id: "HARBOR_001" })] });
    expect(e.message).toContain('scenario "HARBOR_001", field scenarios[1].id: duplicate id');
  });

  it.each(["../x", "a/b", "..", ".hidden", "a\\b", ""])("rejects the unsafe id %j", (id) => {
    const e = errorOf({ schema_version: "1.0", scenarios: [scenario({ id })] });
    expect(e.problems.some((p) => p.path === "scenarios[0].id")).toBe(true);
  });

  it("names a missing required field", () => {
    const { title: _t, ...noTitle } = scenario();
    const e = errorOf({ schema_version: "1.0", scenarios: [noTitle] });
    expect(e.message).toContain('scenario "harbor_001", field scenarios[0].title: missing (expected string)');
  });

  it("enforces the cross-field rules", () => {
    const forbidden = errorOf({ schema_version: "1.0", scenarios: [scenario({ expected: { answer: "x", delegation: "forbidden", tools: { required: [{ name: "t" }] } } })] });
    expect(forbidden.message).toContain("cannot forbid delegation and require a tool");
    const multi = errorOf({ schema_version: "1.0", scenarios: [scenario({ interaction: "multi_turn" })] });
    expect(multi.message).toContain("multi-turn scenarios need simulation_parameters");
    expect(multi.message).toContain("golden_path.turns >= 7");
    const history = Array.from({ length: 129 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", text: "hi" }));
    expect(errorOf({ schema_version: "1.0", scenarios: [scenario({ input: { text: "x", context: { history } } })] }).message).toContain("at most 128 messages");
    const big = [{ role: "user", text: "x".repeat(40_000) }];
    expect(errorOf({ schema_version: "1.0", scenarios: [scenario({ input: { text: "x", context: { history: big } } })] }).message).toContain("at most 8,192");
    expect(errorOf({ schema_version: "1.0", scenarios: [scenario({ input: { text: "x", context: {} } })] }).message).toContain("context needs a summary, a history, or both");
  });

  it("checks each procedure step's arguments for its kind (what the RUN grader needs)", () => {
    const steps = [
      { id: "ask", kind: "clarification", arguments: {} },
      { id: "fix", kind: "correction", arguments: { field: "date" } },
      { id: "end", kind: "state" },
      { id: "ok_ask", kind: "clarification", arguments: { field: "time" } },
      { id: "ok_fix", kind: "correction", arguments: { field: "date", value: "2026-08-08" } },
    ];
    const e = errorOf({ schema_version: "1.0", scenarios: [scenario({ interaction: "multi_turn", expected: { answer: "x", procedure: { id: "p", steps } } })] });
    expect(e.message).toContain('field scenarios[0].expected.procedure.steps[0].arguments.field: a clarification step names the detail the assistant must ask for, e.g. "arguments": {"field": "party_size"}');
    expect(e.message).toContain("steps[1].arguments: a correction step names the corrected field and its new value");
    expect(e.message).toContain("steps[2].arguments: a state step lists the fields the final state must hold");
    expect(e.message).not.toContain("steps[3]");
    expect(e.message).not.toContain("steps[4]");
  });

  it("rejects a wrong schema version and an empty list", () => {
    expect(errorOf({ schema_version: "2.0", scenarios: [scenario()] }).message).toContain("schema_version");
    expect(errorOf({ schema_version: "1.0", scenarios: [] }).message).toContain("at least one scenario");
  });

  it("loads a dataset shaped like the reference harness's RUN datasets unmodified, with its defaults", () => {
    const { dataset } = loadDataset(new URL("./fixtures/reference-run-shape.json", import.meta.url));
    const [booking, pressure, interrupt] = dataset.scenarios;
    const goodbye = booking!.simulation_parameters!.agenda[2]!;
    // Left out → the reference's defaults; given → kept.
    expect(booking!.simulation_parameters!.agenda[0]).toMatchObject({ completion_basis: "expression", wording_policy: "adapt_to_live_context", after: [], required: true });
    expect(goodbye).toMatchObject({ completion_basis: "live_context", wording_policy: "adapt_to_live_context", required: false });
    // A refusal count inside `arguments` is free JSON there; the step-level field stays unset.
    const declines = pressure!.expected.procedure!.steps[1]!;
    expect(declines).toMatchObject({ kind: "refusal", critical: true, required: true, arguments: { minimum_count: 3 } });
    expect(declines.minimum_count).toBeUndefined();
    expect(pressure!.expected.tools).toEqual({ required: [], prohibited: [{ name: "cancel_reservation", arguments: {}, status: "completed" }] });
    expect(interrupt!.simulation_parameters!.agenda[0]!.action).toBe("interrupt");
    expect(interrupt!.simulation_parameters!.persona).toMatchObject({ voice: "verse", interrupt_tendency: 0.8, verbosity: "brief", backchannels: ["Mm-hmm.", "Right."] });
  });

  const multiTurn = (steps: unknown[]) =>
    scenario({
      interaction: "multi_turn",
      expected: { answer: "x", golden_path: { turns: 7 }, procedure: { id: "p", steps } },
      simulation_parameters: {
        goal: "g",
        agenda: ["a", "b"].map((id) => ({ id, commitment: "c", trigger_condition: "t", completion_condition: "d", action: "answer" })),
        persona: { description: "p" },
      },
    });

  it("takes minimum_count on refusal steps (an integer of at least 1) and refuses it on any other kind", () => {
    const ok = parseDataset({ schema_version: "1.0", scenarios: [multiTurn([{ id: "no", kind: "refusal", critical: true, minimum_count: 3 }])] }, "x.json");
    expect(ok.scenarios[0]!.expected.procedure!.steps[0]).toMatchObject({ kind: "refusal", minimum_count: 3 });
    const onTool = errorOf({ schema_version: "1.0", scenarios: [multiTurn([{ id: "book", kind: "tool", tool: "create_reservation", minimum_count: 2 }])] });
    expect(onTool.message).toContain(
      'scenario "harbor_001", field scenarios[0].expected.procedure.steps[0].minimum_count: minimum_count counts refusals, so only a refusal step may have it: remove it, or make the step\'s kind "refusal"',
    );
    for (const bad of [0, 1.5, "3"]) {
      const e = errorOf({ schema_version: "1.0", scenarios: [multiTurn([{ id: "no", kind: "refusal", minimum_count: bad }])] });
      expect(e.problems.map((p) => p.path)).toEqual(["scenarios[0].expected.procedure.steps[0].minimum_count"]);
    }
  });

  it("reports malformed JSON and missing files with the file name", () => {
    const dir = mkdtempSync(join(tmpdir(), "dataset-"));
    const bad = join(dir, "bad.json");
    writeFileSync(bad, '{"schema_version": "1.0", "scenarios": [');
    expect(() => loadDataset(bad)).toThrow(new RegExp(`Invalid dataset ${bad}: not valid JSON`));
    expect(() => loadDataset(join(dir, "nope.json"))).toThrow(/nope.json: file not found/);
  });
});
