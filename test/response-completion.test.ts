import { describe, expect, it } from "vitest";
import type { Interval } from "../src/core/timeline/intervals";
import { ResponseCompletion } from "../src/core/trial/single-turn/response-completion";

/**
 * `complete(now)` is asked on every 20 ms chunk and skips grouping the transcript while cheaper
 * conditions still block; it must agree with `waitingFor(now)` being empty at every instant.
 */
describe("ResponseCompletion.complete", () => {
  it("agrees with waitingFor at every 20 ms instant of a response, and turns true where the rule says", () => {
    let voiced: Interval[] = [];
    const completion = new ResponseCompletion(20, () => voiced);
    const script: Array<[number, () => void]> = [
      [1_000, () => completion.observe({ type: "transcript.delta", at_ms: 1_000, role: "user", text: "A table for two", start_ms: 200, end_ms: 1_000 })],
      [1_200, () => completion.callerFinished(1_200)],
      [1_800, () => completion.observe({ type: "audio.delta", at_ms: 1_800, role: "assistant", pcm: new Uint8Array(960).fill(3) })],
      [1_900, () => completion.observe({ type: "transcript.delta", at_ms: 1_900, role: "assistant", text: "Booked.", start_ms: 1_800, end_ms: 2_400 })],
      [2_400, () => (voiced = [{ start_ms: 1_800, end_ms: 2_400 }])],
    ];
    const seen: Array<[number, boolean]> = [];
    for (let now = 0; now <= 4_000; now += 20) {
      for (const [at, step] of script) if (at === now) step();
      const complete = completion.complete(now);
      expect(complete, `at ${now} ms (waiting for: ${completion.waitingFor(now).join(", ")})`).toBe(completion.waitingFor(now).length === 0);
      seen.push([now, complete]);
    }
    // Complete once the assistant's speech and events have been quiet for the settle time (600 ms).
    expect(seen.find(([, c]) => c)?.[0]).toBe(3_000);
    expect(seen.filter(([, c]) => c).length).toBe((4_000 - 3_000) / 20 + 1);
  });

  it("waits for a delegated result the service placed later on its timeline, however fast the backend answered", () => {
    // The backend answered before the acknowledgement was heard; the service placed the result after a pause.
    for (const placedEnd of [3_400, 5_000, 7_260]) {
      let voiced: Interval[] = [];
      const completion = new ResponseCompletion(20, () => voiced);
      completion.callerFinished(1_000);
      completion.observe({ type: "delegation.created", at_ms: 1_100, delegation_id: "d1", target: "client" });
      completion.observe({ type: "delegation.content", at_ms: 1_150, delegation_id: "d1", text: "Booked for two." });
      completion.observe({ type: "delegation.completed", at_ms: 1_160, delegation_id: "d1", placed_until_ms: placedEnd });
      completion.observe({ type: "audio.delta", at_ms: 1_200, role: "assistant", pcm: new Uint8Array(960).fill(3) });
      completion.observe({ type: "transcript.delta", at_ms: 1_400, role: "assistant", text: "One moment.", start_ms: 1_200, end_ms: 1_500 });
      voiced = [{ start_ms: 1_200, end_ms: 1_500 }];
      const first = Array.from({ length: 500 }, (_, i) => i * 20).find((now) => completion.complete(now));
      expect(first, `placed until ${placedEnd}`).toBe(Math.max(placedEnd, 1_500 + 600));
      expect(completion.waitingFor(placedEnd - 20)).toContain("the delegated result's placed speech");
    }
  });
});
