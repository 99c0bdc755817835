import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { pcm16ToBytes } from "../src/core/audio/pcm";
import { startLiveSimulator, type LiveSimulator } from "../src/core/simulator/server";
import { run } from "../src/core/run/run";
import type { CallerSpeech } from "../src/core/trial/context";
import { tone, toneSynthesizer } from "./live-helpers";

/**
 * The live code path of the GPT-Live target — `--live` settings, Bearer auth, the real-time clock, the
 * Responses API backend under client delegation — run against protocol-faithful servers on loopback:
 * the local GPT-Live simulator standing in for the service, and a Responses API server. No internet.
 */
const KEY = "sk-live-test-0123456789";
let simulator: LiveSimulator | undefined;
let responses: Server | undefined;
afterEach(async () => {
  await simulator?.close();
  await new Promise<void>((resolve) => (responses ? responses.close(() => resolve()) : resolve()));
  simulator = undefined;
  responses = undefined;
});

/** Caller speech whose words the stand-in service is told, as a real service would hear them. */
function hearableSpeech(sim: LiveSimulator): CallerSpeech {
  return {
    async synthesize(text) {
      const samples = tone(text, 30, 11);
      sim.registerCallerAudio(pcm16ToBytes(samples), text);
      return { samples, sampleRate: 24_000 };
    },
  };
}

describe("GPT-Live target in live mode, against loopback servers", () => {
  it("runs a managed (Responses) delegation booking with Bearer auth in real time", async () => {
    simulator = await startLiveSimulator({ policy: restaurantPolicy(), synthesizer: toneSynthesizer({ msPerChar: 8 }), apiKey: KEY });
    const result = await run(PLAN, {
      target: "restaurant",
      real_time: true,
      selection: { ids: ["harbor_003"] },
      target_settings: { mode: "live", api_key: KEY, endpoint: simulator.url },
      speech: hearableSpeech(simulator),
    });
    const r = result.records[0]!;
    expect([r.status, r.error]).toEqual(["passed", null]);
    expect(simulator.stats).toMatchObject({ connections: 1, unauthorized: 0 });
    expect(r.tool_executions.map((t) => [t.name, t.status])).toEqual([["create_reservation", "completed"]]);
    expect(r.delegations[0]!.target).toBe("responses");
    expect(r.provenance.parts.target).toMatch(/^[0-9a-f]{64}$/);
    // The key went only into the Authorization header: never into any event.
    expect(JSON.stringify(r.events)).not.toContain(KEY);
    const pacing = r.events.find((e) => e.type === "audio.pacing")!.data as { chunks: number };
    expect(pacing.chunks).toBeGreaterThan(50);
  });

  it("runs client delegation with the Responses API backend", async () => {
    simulator = await startLiveSimulator({ policy: restaurantPolicy(), synthesizer: toneSynthesizer({ msPerChar: 8 }), apiKey: KEY });
    const bodies: Array<Record<string, unknown>> = [];
    responses = createServer(async (req, res) => {
      let text = "";
      for await (const chunk of req) text += chunk;
      const body = JSON.parse(text) as Record<string, unknown>;
      bodies.push(body);
      const usage = { input_tokens: 50, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 60 };
      const output = body.previous_response_id
        ? [{ type: "message", id: "m1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Done: a table for two under Maya on August 6 at 7 p.m.", annotations: [] }] }]
        : [{ type: "function_call", id: "f1", call_id: "call_1", name: "create_reservation", arguments: JSON.stringify({ guest_name: "Maya", date: "2026-08-06", time: "19:00", party_size: 2 }), status: "completed" }];
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `resp_${bodies.length}`, object: "response", created_at: 1, status: "completed", model: "gpt-5.6-terra", output, usage }));
    });
    await new Promise<void>((resolve) => responses!.listen(0, "127.0.0.1", resolve));
    const baseURL = `http://127.0.0.1:${(responses.address() as AddressInfo).port}/v1`;
    const result = await run(PLAN, {
      target: "restaurant",
      real_time: true,
      selection: { ids: ["harbor_003"] },
      target_settings: { mode: "live", api_key: KEY, endpoint: simulator.url, delegation: "client", responses_base_url: baseURL, responses_api_key: KEY },
      speech: hearableSpeech(simulator),
    });
    const r = result.records[0]!;
    expect([r.status, r.error]).toEqual(["passed", null]);
    expect(r.delegations[0]!.target).toBe("client");
    // The backend was rebuilt from the transcript the application heard.
    expect(JSON.stringify(bodies[0]!.input)).toContain("August 6");
    expect(r.metrics.consumption.backend).toMatchObject({ total: 120 });
  });
});
