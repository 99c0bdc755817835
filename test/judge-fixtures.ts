import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PLAN } from "../crashlab/evaluations";
import type { Scenario } from "../src/core/dataset/schema";
import type { TrialRecord } from "../src/core/record/trial-record";
import { run } from "../src/core/run/run";

/**
 * Shared by the judge tests: real trial records from the bundled restaurant package (text level, offline),
 * and a loopback server speaking the Responses API (POST /v1/responses) with structured output.
 */

export function scenarioOf(caseId: string): Scenario {
  const c = PLAN.cases.find((x) => x.id === caseId);
  if (!c) throw new Error(`no case ${caseId}`);
  return c.scenario;
}

/** Real records of the given cases, produced by the correct restaurant policy. */
export async function restaurantRecords(...ids: string[]): Promise<TrialRecord[]> {
  const result = await run(PLAN, { target: "text_restaurant", selection: { ids } });
  return result.records;
}

export const USAGE = { input_tokens: 1200, input_tokens_details: { cached_tokens: 200 }, output_tokens: 150, output_tokens_details: { reasoning_tokens: 50 }, total_tokens: 1350 };

let responseCount = 0;

/** A Responses API body whose single message holds `text` as output_text. */
export function textResponse(text: string, extra: Record<string, unknown> = {}) {
  responseCount++;
  return {
    id: `resp_judge_${responseCount}`,
    object: "response",
    created_at: 1_780_000_000,
    status: "completed",
    model: "gpt-5.6-terra-2026-06-26",
    output: [{ type: "message", id: `msg_${responseCount}`, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
    usage: USAGE,
    ...extra,
  };
}

/** A structured verdict reply. */
export function verdict(reply: Record<string, unknown>) {
  return textResponse(JSON.stringify(reply));
}

/** A refusal content part instead of output text. */
export function refusal(text: string) {
  responseCount++;
  return {
    id: `resp_judge_${responseCount}`,
    object: "response",
    created_at: 1_780_000_000,
    status: "completed",
    model: "gpt-5.6-terra",
    output: [{ type: "message", id: `msg_${responseCount}`, role: "assistant", status: "completed", content: [{ type: "refusal", refusal: text }] }],
    usage: USAGE,
  };
}

export type Reply = { status: number; json: unknown } | "hang";

export interface SeenRequest {
  auth: string | undefined;
  url: string | undefined;
  body: Record<string, unknown>;
}

export interface JudgeServer {
  endpoint: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** The clause id a judge request is about (from its BEHAVIOR CLAUSE section). */
export function clauseOf(body: Record<string, unknown>): string {
  const content = String((body.input as Array<{ content: string }>)[0]!.content);
  return /^id: (\S+)$/m.exec(content)![1]!;
}

/**
 * Start a loopback Responses server. `answer(body, n)` decides each reply (n counts requests from 0).
 * With `hold`, replies wait until that many requests are open, proving the calls ran in parallel.
 */
export async function startJudgeServer(answer: (body: Record<string, unknown>, n: number) => Reply, options: { hold?: number } = {}): Promise<JudgeServer> {
  const seen: SeenRequest[] = [];
  const waiting: Array<() => void> = [];
  let n = 0;
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = JSON.parse(text) as Record<string, unknown>;
    seen.push({ auth: req.headers.authorization, url: req.url, body });
    if (req.method !== "POST" || req.url !== "/v1/responses") {
      res.writeHead(404).end();
      return;
    }
    const reply = answer(body, n++);
    const send = () => {
      if (reply === "hang") return;
      res.writeHead(reply.status, { "content-type": "application/json" }).end(JSON.stringify(reply.json));
    };
    if (options.hold) {
      waiting.push(send);
      if (waiting.length >= options.hold) waiting.splice(0).forEach((f) => f());
    } else send();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
