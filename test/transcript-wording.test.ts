import { describe, expect, it } from "vitest";
import { restaurantWorld } from "../crashlab/worlds/restaurant";
import { crawl, definePlan, type Plan } from "../src/core/run/plan";
import { run } from "../src/core/run/run";
import { gptLiveTarget } from "../src/core/gpt-live-target/adapter";
import { DEFAULT_TARGET_SETTINGS } from "../src/core/target/settings";
import { EspeakSynthesizer } from "../src/core/speech/espeak";
import type { AssistantPolicy } from "../src/core/target/policy";
import { parseDataset } from "../src/core/dataset/load";

/**
 * Whether an acknowledgement and the answer that follows are two assistant turns must
 * not depend on their wording. Output transcript fragments belong where the audio they caption sits on
 * the timeline (the service's own start_ms/end_ms), not at their arrival time stretched by their span.
 */
const speech = new EspeakSynthesizer();

function scriptedPolicy(acknowledgement: string, reply: string): AssistantPolicy {
  return {
    name: "scripted",
    version: "1",
    frontend: () => ({ kind: "delegate", acknowledgement }),
    backend: async () => ({ reply }),
  };
}

const dataset = parseDataset(
  {
    schema_version: "1.0",
    scenarios: [
      {
        id: "wording",
        title: "Any question the backend answers",
        type: "information",
        interaction: "single_turn",
        tags: [],
        input: { text: "Could you look something up for me?" },
        application: { initial_state: {} },
        expected: { answer: "An answer.", delegation: "optional", state: { unchanged: true } },
      },
    ],
  },
  "wording.json",
);

function planFor(policy: AssistantPolicy): Plan {
  return definePlan({
    name: "wording",
    targets: { t: (settings) => gptLiveTarget({ settings, instructions: "Help.", backend_instructions: "Help.", tools: [], offline: { policy } }) },
    cases: crawl({ file: "wording.json", dataset }, { world: restaurantWorld }),
  });
}

async function assistantTurns(acknowledgement: string, reply: string) {
  const result = await run(planFor(scriptedPolicy(acknowledgement, reply)), { speech, target_settings: { ...DEFAULT_TARGET_SETTINGS } });
  const record = result.records[0]!;
  return { error: record.error, turns: record.turns.filter((t) => t.role === "assistant").map((t) => t.text) };
}

/** A small seeded generator (mulberry32) so the property's cases are the same on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["I", "I'm", "a", "so", "ok", "one", "moment", "while", "check", "your", "table", "schedule", "availability", "unfortunately", "reservation", "extraordinarily", "sure", "yes", "no", "we", "are", "fully", "booked", "sorry", "confirmed", "evening"];

function sentence(next: () => number, min: number, max: number): string {
  const n = min + Math.floor(next() * (max - min + 1));
  const words = Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]!);
  const text = words.join(" ");
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

describe("completion does not depend on wording", () => {
  it("the clinic case: an acknowledgement ending in a long word, an answer starting with a short one", async () => {
    // Before the fix these merged into one turn and the trial ended at response_timeout.
    const out = await assistantTurns("Give me a second to check the appointment schedule.", "I'm sorry, that time is taken.");
    expect(out.error).toBeNull();
    expect(out.turns).toEqual(["Give me a second to check the appointment schedule.", "I'm sorry, that time is taken."]);
    const short = await assistantTurns("Checking the schedule.", "I'm afraid not.");
    expect(short).toEqual({ error: null, turns: ["Checking the schedule.", "I'm afraid not."] });
  });

  it("random acknowledgement and answer wordings always give exactly two assistant turns", async () => {
    const next = random(20261130);
    for (let i = 0; i < 24; i++) {
      const acknowledgement = sentence(next, 1, 7);
      const reply = sentence(next, 1, 9);
      const out = await assistantTurns(acknowledgement, reply);
      expect({ acknowledgement, reply, ...out }).toEqual({ acknowledgement, reply, error: null, turns: [acknowledgement, reply] });
    }
  }, 120_000);
});
