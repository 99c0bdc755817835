import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { unpackTrial } from "../src/core/report/html";

/**
 * Loopback HTTP servers that record every request (method, path with query, headers, body) and answer by
 * route: stand-ins for a Responses endpoint, a speech endpoint, a judge, or a trap where nothing may go.
 * Shared by the endpoint tests (test/endpoints.test.ts, test/azure.test.ts).
 */
export interface SeenHttp {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
}

export interface HttpReply {
  status: number;
  json?: unknown;
  bytes?: Uint8Array;
  contentType?: string;
}

export interface RecordingServer {
  /** `http://127.0.0.1:PORT` (no path). */
  origin: string;
  seen: SeenHttp[];
  close(): Promise<void>;
}

export async function recordingServer(answer: (request: SeenHttp, n: number) => HttpReply): Promise<RecordingServer> {
  const seen: SeenHttp[] = [];
  let n = 0;
  const server: Server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    let body: Record<string, unknown> | undefined;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      body = { unparsed: text };
    }
    const request: SeenHttp = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
    seen.push(request);
    const reply = answer(request, n++);
    if (reply.bytes) res.writeHead(reply.status, { "content-type": reply.contentType ?? "application/octet-stream" }).end(reply.bytes);
    else res.writeHead(reply.status, { "content-type": "application/json" }).end(JSON.stringify(reply.json ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const NOT_FOUND: HttpReply = { status: 404, json: { error: { message: "no such route" } } };

const USAGE = { input_tokens: 40, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 50 };

/** A Responses API reply (`object: "response"`) with these output items. */
export function responseBody(id: string, output: unknown[]): Record<string, unknown> {
  return { id, object: "response", created_at: 1, status: "completed", model: "gpt-5.6-terra", output, usage: USAGE };
}

export function textOutput(id: string, text: string): unknown {
  return { type: "message", id, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] };
}

/**
 * The restaurant backend as a scripted model for harbor_001 (table for two under Maya, August 14,
 * 7 p.m.): first a create_reservation call, then, given its output, the confirmation quoting the id.
 */
export function bookingBackend(request: SeenHttp, n: number): HttpReply {
  const input = (request.body?.input ?? []) as Array<{ type?: string; output?: string }>;
  const output = input.find((item) => item.type === "function_call_output")?.output;
  if (output === undefined)
    return {
      status: 200,
      json: responseBody(`resp_b${n}`, [
        { type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: "create_reservation", arguments: JSON.stringify({ guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 }), status: "completed" },
      ]),
    };
  const id = /"(?:reservation_id|id)"\s*:\s*"([^"]+)"/.exec(output)?.[1] ?? "unknown";
  return { status: 200, json: responseBody(`resp_b${n}`, [textOutput(`m${n}`, `Your table for two under Maya on August 14 at 7 p.m. is booked; the reservation number is ${id}.`)]) };
}

/** Every file under `dir`. */
export function everyFile(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? everyFile(join(dir, name)) : [join(dir, name)]));
}

/** The text of every output file of a run folder (report.html's packed trials unpacked too), WAVs aside. */
export function outputTexts(runDir: string): { file: string; text: string }[] {
  return everyFile(runDir)
    .filter((f) => !f.endsWith(".wav"))
    .flatMap((file) => {
      const text = readFileSync(file, "utf8");
      const packed = [...text.matchAll(/<script type="application\/x-crashlab-trial" id="trial-\d+">([^<]*)<\/script>/g)].map((m) => ({ file: `${file} (packed trial)`, text: unpackTrial(m[1]!) }));
      return [{ file, text }, ...packed];
    });
}
