import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ResponsesBackend } from "../src/core/target/responses-backend";
import type { PolicyTools } from "../src/core/target/policy";

/**
 * The live client-delegation backend runs the real `openai` client code against a loopback server that
 * speaks the Responses API (POST /v1/responses, JSON), so no test needs the internet.
 */
interface Seen {
  auth: string | undefined;
  body: Record<string, unknown>;
}

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as Record<string, unknown>;
}

function response(id: string, output: unknown[], status = "completed") {
  return {
    id,
    object: "response",
    created_at: 1_780_000_000,
    status,
    model: "gpt-5.6-terra",
    output,
    usage: { input_tokens: 120, input_tokens_details: { cached_tokens: 20 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 10 }, total_tokens: 150 },
  };
}

async function serve(replies: Array<(body: Record<string, unknown>) => { status: number; json: unknown }>, seen: Seen[]): Promise<string> {
  let i = 0;
  server = createServer(async (req, res) => {
    const body = await readJson(req);
    seen.push({ auth: req.headers.authorization, body });
    if (req.method !== "POST" || req.url !== "/v1/responses") {
      res.writeHead(404).end();
      return;
    }
    const reply = replies[Math.min(i++, replies.length - 1)]!(body);
    res.writeHead(reply.status, { "content-type": "application/json" }).end(JSON.stringify(reply.json));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`;
}

const tools = [{ type: "function" as const, name: "create_reservation", description: "Book a table", parameters: { type: "object", properties: { guest_name: { type: "string" } } } }];

describe("ResponsesBackend (client delegation, live)", () => {
  it("runs the function-call loop through the tool door and returns the spoken result", async () => {
    const seen: Seen[] = [];
    const baseURL = await serve(
      [
        () => ({ status: 200, json: response("resp_1", [{ type: "function_call", id: "fc_1", call_id: "call_a", name: "create_reservation", arguments: '{"guest_name":"Maya"}', status: "completed" }]) }),
        () => ({ status: 200, json: response("resp_2", [{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Booked for Maya.", annotations: [] }] }]) }),
      ],
      seen,
    );
    const calls: Array<[string, Record<string, unknown>]> = [];
    const door: PolicyTools = {
      async call(name, args) {
        calls.push([name, args]);
        return { status: "completed", output: { reservation_id: "R-1" } };
      },
    };
    const observed: string[] = [];
    const backend = new ResponsesBackend({ apiKey: "sk-test-key-123456", baseURL, model: "gpt-5.6-terra", instructions: "You book tables.", tools });
    const result = await backend.run(
      { request: "Book for Maya", transcript: [{ role: "user", text: "Book a table for Maya." }], context: { summary: "Verified caller Maya" } },
      door,
      {
        request: () => observed.push("request"),
        created: (id) => observed.push(`created ${id}`),
        completed: (id, _m, usage, status) => observed.push(`${status} ${id} total=${usage?.total} cached=${usage?.input.cached} reasoning=${usage?.output.reasoning}`),
      },
    );
    expect(result.reply).toBe("Booked for Maya.");
    expect(calls).toEqual([["create_reservation", { guest_name: "Maya" }]]);
    expect(observed).toEqual(["request", "created resp_1", "completed resp_1 total=150 cached=20 reasoning=10", "request", "created resp_2", "completed resp_2 total=150 cached=20 reasoning=10"]);
    expect(seen[0]!.auth).toBe("Bearer sk-test-key-123456");
    expect(seen[0]!.body).toMatchObject({ model: "gpt-5.6-terra", input: [{ role: "user", content: "Book a table for Maya." }], tools: [{ type: "function", name: "create_reservation" }] });
    expect(String(seen[0]!.body.instructions)).toContain("Verified caller Maya");
    expect(seen[1]!.body).toMatchObject({ previous_response_id: "resp_1", input: [{ type: "function_call_output", call_id: "call_a", output: '{"reservation_id":"R-1"}' }] });
  });

  it("surfaces a failed response and an HTTP error as errors, never as a reply", async () => {
    const seen: Seen[] = [];
    const failedURL = await serve([() => ({ status: 200, json: { ...response("resp_f", [], "failed"), error: { code: "server_error", message: "backend exploded" } } })], seen);
    const noTools: PolicyTools = { call: async () => ({ status: "completed", output: null }) };
    const quiet = { request() {}, created() {}, completed() {} };
    const backend = new ResponsesBackend({ apiKey: "sk-x", baseURL: failedURL, model: "m", instructions: "", tools: [] });
    await expect(backend.run({ request: "x", transcript: [{ role: "user", text: "x" }] }, noTools, quiet)).rejects.toThrow(/resp_f failed: backend exploded/);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const errURL = await serve([() => ({ status: 400, json: { error: { message: "bad tool schema", type: "invalid_request_error" } } })], seen);
    const bad = new ResponsesBackend({ apiKey: "sk-x", baseURL: errURL, model: "m", instructions: "", tools: [] });
    await expect(bad.run({ request: "x", transcript: [{ role: "user", text: "x" }] }, noTools, quiet)).rejects.toThrow(/bad tool schema/);
  });
});
