/**
 * The variation suite: the bundled restaurant cases against variants of the restaurant assistant, over the
 * offline GPT-Live target (the local simulator on a real loopback WebSocket, virtual time, fixed seeds), in
 * both delegation modes where a case allows. Correct variants must pass; each fault must fail, with its
 * intended check among the failed ones. The matrix (variant × case × mode → verdict and failed checks, the
 * false-fail and miss rates, the wall time) is printed and written to <tmpdir>/crashlab-variation/.
 *
 * How to add a variant: in test/variation/variants.ts, write its policy (usually `wrapped(...)` around
 * `restaurantPolicy()` with a Rewriter: `say` rewrites each spoken line, `frontend` replaces a decision,
 * `backendReply` the backend's answer, `tools` wraps the tool calls; lines the wrapper says instead of the
 * base's are remembered so the base reads its own words back), then append an entry to VARIANTS with its
 * kind ("correct" or "fault"), the cells to run (case ids, delegation modes, seed) and, for a fault, the
 * check it must trip for CRAWL and/or RUN cases and why. Count the `acted` probe so a variant that never
 * changed anything cannot pass unnoticed. Keep the cells few: every RUN cell is a full spoken conversation.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { run } from "../src/core/run/run";
import { CachedSynthesizer, EspeakSynthesizer } from "../src/core/speech/index";
import { offlineConversation } from "./conversation-settings";
import { renderMatrix, runVariant, summarize, writeMatrix, type Cell } from "./variation/matrix";
import { hash, paraphrase, paraphraseSentence, sentences, TEMPLATES } from "./variation/paraphraser";
import { SpokenLines } from "./variation/rewriting-policy";
import { dateForms, timeForms } from "./variation/spoken-values";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { drive, SCRIPTS } from "./variation/drive";
import { CONFIRMATIONS, newProbe, VARIANTS, variantTarget } from "./variation/variants";

describe("the seeded paraphraser", () => {
  it("has at least three rewordings per sentence template, none of them the original wording", () => {
    for (const t of TEMPLATES) {
      expect(t.frames.length, t.id).toBeGreaterThanOrEqual(3);
      const said = new Set(t.frames.map((f) => f(new Proxy({}, { get: (_o, k) => `<${String(k)}>` }))));
      expect(said.size, t.id).toBe(t.frames.length);
    }
  });

  it("keeps every value of a line, said in another form, and gives the same wording for the same seed", () => {
    const line = "You're booked: a table for two on the patio under Maya on August 6 at 7 p.m. Your reservation number is R-1042.";
    expect(sentences(line)).toHaveLength(2);
    const seen = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const p = paraphrase(line, seed);
      expect(p.templates).toEqual(["booked", "reservation_number"]);
      expect(p.text).toBe(paraphrase(line, seed).text);
      expect(p.text).toContain("Maya");
      expect(p.text).toContain("R-1042");
      expect(p.text).toMatch(/patio/);
      expect(p.text).toMatch(/\b(two|2)\b/);
      expect(timeForms("7 p.m.").some((t) => p.text.includes(t))).toBe(true);
      expect(dateForms("August 6").some((d) => p.text.includes(d))).toBe(true);
      seen.add(p.text);
    }
    expect(seen.size).toBeGreaterThanOrEqual(3);
    expect(timeForms("6:30 p.m.")).toEqual(["6:30 p.m.", "six thirty in the evening", "six thirty p.m.", "half past six in the evening"]);
    expect(timeForms("10 p.m.")).toContain("ten at night");
    expect(dateForms("August 21")).toEqual(["August 21", "the twenty-first of August", "August twenty-first"]);
  });

  it("maps its own lines back to the base's, whole or inside a longer transcript", () => {
    const lines = new SpokenLines();
    const original = "Good news: we have a table for two on August 7 at 7 p.m. Would you like me to book it?";
    const spoken = paraphrase(original, 3).text;
    expect(spoken).not.toBe(original);
    lines.remember(spoken, original);
    expect(lines.restore(spoken)).toBe(original);
    const ack = paraphraseSentence("Let me check that for you.", 5)!.text;
    lines.remember(ack, "Let me check that for you.");
    expect(lines.restore(`${ack}  ${spoken}`)).toBe(`Let me check that for you. ${original}`);
    expect(lines.conflicts).toEqual([]);
    expect(hash("a")).not.toBe(hash("b"));
  });
});

describe("the correct variants decide what the bundled assistant decides (text level, scripted caller)", () => {
  const variant = (id: string) => VARIANTS.find((v) => v.id === id)!;
  it.each(SCRIPTS.map((s) => [s.id, s] as const))("%s", async (_id, script) => {
    const base = await drive(restaurantPolicy(), script.lines, script.summary);
    expect(base.calls.length + base.said.length).toBeGreaterThan(0);
    for (let seed = 1; seed <= 6; seed++) {
      const probe = newProbe();
      const paraphrased = await drive(variant("paraphrase").build(seed, probe).policy, script.lines, script.summary);
      expect(paraphrased.calls, `paraphrase seed ${seed}`).toEqual(base.calls);
      expect(paraphrased.said).toHaveLength(base.said.length);
      paraphrased.said.forEach((line, i) => expect(line, `seed ${seed}`).not.toBe(base.said[i]));
      expect([...probe.uncovered]).toEqual([]);
      expect(probe.lines[0]!.conflicts).toEqual([]);

      const longer = await drive(variant("long_answers").build(seed, newProbe()).policy, script.lines, script.summary);
      expect(longer.calls).toEqual(base.calls);
      longer.said.forEach((line, i) => expect(line.length).toBeGreaterThanOrEqual(2 * base.said[i]!.length));

      const layout = await drive(variant("tool_argument_layout").build(seed, newProbe()).policy, script.lines, script.summary);
      expect(layout.calls).toEqual(base.calls);
      layout.calls.forEach((c, i) => Object.keys(c.args).length > 1 && expect(Object.keys(c.args)).not.toEqual(Object.keys(base.calls[i]!.args)));

      // The extra question comes before every booking, and the booking follows the caller's yes.
      let asked = 0;
      const confirming = await drive(variant("confirm_before_booking").build(seed, newProbe()).policy, script.lines, script.summary, (said) =>
        CONFIRMATIONS.includes(said) ? (asked++, "Yes, please.") : undefined,
      );
      expect(confirming.calls).toEqual(base.calls);
      expect(asked).toBe(base.calls.filter((c) => c.name === "create_reservation").length);
    }
  });
});

describe("a variant run is reproducible", () => {
  it("gives identical trial records for one seed, whatever the concurrency (wall-clock stamps aside)", async () => {
    const speech = new CachedSynthesizer(new EspeakSynthesizer({ voice: "coral" }), { root: mkdtempSync(join(tmpdir(), "variation-speech-")) });
    const variant = VARIANTS.find((v) => v.id === "paraphrase")!;
    const once = async (concurrency: number) => {
      const plan = { ...PLAN, targets: { paraphrase: variantTarget(variant, 5, newProbe()) }, default_target: "paraphrase" };
      const result = await run(plan, { speech, conversation: offlineConversation(), seed: 5, concurrency, selection: { ids: ["harbor_013", "run_cancel_corrected_id"] } });
      return result.records.map((r) => ({ ...r, wall: null }));
    };
    const [a, b] = [await once(2), await once(1)];
    expect(a).toEqual(b);
    expect(a.map((r) => r.turns.length)).toEqual([expect.any(Number), expect.any(Number)]);
  }, 300_000);
});

describe("variants of the restaurant assistant", () => {
  const speech = new CachedSynthesizer(new EspeakSynthesizer({ voice: "coral" }), { root: mkdtempSync(join(tmpdir(), "variation-speech-")) });
  const only = process.env.CRASHLAB_VARIATION?.split(",").filter(Boolean);
  const variants = only ? VARIANTS.filter((v) => only.includes(v.id)) : VARIANTS;
  const cells: Cell[] = [];
  const notes: string[] = [];
  const started = Date.now();

  afterAll(() => {
    if (cells.length === 0) return;
    const summary = summarize(cells, Date.now() - started);
    const path = writeMatrix(cells, summary, notes);
    console.log(`${renderMatrix(cells, summary, notes)}\n(written to ${path})`);
  });

  it.each(variants.map((v) => [v.id, v] as const))(
    "%s",
    async (_id, variant) => {
      const probe = newProbe();
      const mine = await runVariant(variant, probe, { speech, conversation: offlineConversation() });
      cells.push(...mine);
      if (variant.id === "paraphrase") {
        const frames = TEMPLATES.reduce((n, t) => n + t.frames.length, 0);
        const heard = [...probe.acted.keys()].filter((k) => k.includes("#"));
        const templates = new Set(heard.map((k) => k.split("#")[0]));
        notes.push("", `paraphrase: ${templates.size}/${TEMPLATES.length} sentence templates spoken, ${heard.length}/${frames} rewordings heard across seeds`);
      }
      const planned = variant.cells.reduce((n, c) => n + c.cases.length * c.modes.length, 0);
      expect(mine).toHaveLength(planned);
      // The variant did what it says (a no-op variant proves nothing) and said nothing it could not map back.
      if (variant.id === "slow_answers") for (const c of mine) expect(Math.min(...c.answer_gaps_ms), `${c.case_id} ${c.mode}`).toBeGreaterThanOrEqual(6000);
      else if (variant.id !== "first_value_after_correction") expect(probe.acted.size, "the variant never acted").toBeGreaterThan(0);
      expect([...probe.uncovered], "sentences the paraphraser has no template for").toEqual([]);
      expect(probe.lines.flatMap((l) => l.conflicts)).toEqual([]);
      const wrong = mine.filter((c) => !c.ok).map((c) => `${c.case_id} ${c.mode}: ${c.status}${c.intended ? `, needs ${c.intended}` : ""}; failed [${c.failed.join(", ")}]`);
      expect(wrong, variant.kind === "correct" ? "false fails" : "missed faults").toEqual([]);
    },
    1_200_000,
  );
});
