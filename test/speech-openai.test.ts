import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { OpenAISpeechSynthesizer, SpeechError } from "../src/core/speech";

/** One scripted answer of the loopback speech endpoint. */
interface Reply {
  status: number;
  headers?: Record<string, string>;
  body: Uint8Array | string;
  delayMs?: number;
}

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A loopback stand-in for POST /v1/audio/speech that records each request and plays scripted replies. */
async function speechServer(replies: Reply[]): Promise<{ baseURL: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: text ? JSON.parse(text) : undefined });
      const reply = req.method === "POST" && req.url === "/v1/audio/speech" ? replies.shift() : undefined;
      const send = () => {
        if (!reply) {
          res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
          return;
        }
        res.writeHead(reply.status, reply.headers ?? {}).end(reply.body);
      };
      if (reply?.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))));
});

const API_KEY = "sk-test-loopback-123";
const SAMPLES = Int16Array.from([0, 1, -1, 1000, -1000, 12_345, -12_345, 32_767, -32_768, 256, -256, 7]);
function pcmBytes(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  samples.forEach((s, i) => view.setInt16(i * 2, s, true));
  return bytes;
}
const pcmReply = (samples = SAMPLES): Reply => ({ status: 200, headers: { "content-type": "audio/pcm" }, body: pcmBytes(samples) });
const jsonError = (status: number, message: string, type = "error", headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { "content-type": "application/json", "x-request-id": "req_loop_1", ...headers },
  body: JSON.stringify({ error: { message, type, param: null, code: null } }),
});

async function rejection(work: Promise<unknown>): Promise<SpeechError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpeechError);
  return error as SpeechError;
}

describe("OpenAISpeechSynthesizer against a loopback speech endpoint", () => {
  it("posts the speech request the real endpoint expects and decodes PCM16 LE at 24 kHz", async () => {
    const server = await speechServer([pcmReply()]);
    const tts = new OpenAISpeechSynthesizer({
      apiKey: API_KEY,
      baseURL: server.baseURL,
      voice: "marin",
      instructions: "Speak like a busy caller on a phone.",
    });
    const speech = await tts.synthesize("Book a table for Maya on August 6 at 7 p.m. for two.");

    expect(server.received).toHaveLength(1);
    const [request] = server.received;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("/v1/audio/speech");
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.headers["content-type"]).toMatch(/^application\/json/);
    expect(request!.body).toEqual({
      model: "gpt-4o-mini-tts",
      voice: "marin",
      input: "Book a table for Maya on August 6 at 7 p.m. for two.",
      response_format: "pcm",
      instructions: "Speak like a busy caller on a phone.",
    });

    expect(speech.sampleRate).toBe(24_000);
    expect(speech.samples).toBeInstanceOf(Int16Array);
    expect(Array.from(speech.samples)).toEqual(Array.from(SAMPLES));
    expect(speech).toMatchObject({ provider: "openai", model: "gpt-4o-mini-tts", voice: "marin" });
    expect(tts.instructions).toBe("Speak like a busy caller on a phone.");
  });

  it("defaults to gpt-4o-mini-tts and the contract's persona voice, and sends no instructions it was not given", async () => {
    const server = await speechServer([pcmReply()]);
    const tts = new OpenAISpeechSynthesizer({ apiKey: API_KEY, baseURL: server.baseURL });
    expect(tts.model).toBe("gpt-4o-mini-tts");
    expect(tts.voice).toBe("coral");
    expect(tts.instructions).toBeUndefined();
    await tts.synthesize("Hello.");
    expect(server.received[0]!.body).toEqual({ model: "gpt-4o-mini-tts", voice: "coral", input: "Hello.", response_format: "pcm" });
  });

  it("turns a 401 into an unauthorized SpeechError that says what to fix and never shows the key", async () => {
    const server = await speechServer([jsonError(401, "Incorrect API key provided.", "invalid_request_error")]);
    const tts = new OpenAISpeechSynthesizer({ apiKey: API_KEY, baseURL: server.baseURL, maxRetries: 0 });
    const error = await rejection(tts.synthesize("Hello."));
    expect(error.code).toBe("unauthorized");
    expect(error.status).toBe(401);
    expect(error.provider).toBe("openai");
    expect(error.message).toContain("HTTP 401");
    expect(error.message).toContain("Incorrect API key provided.");
    expect(error.message).toContain("OPENAI_API_KEY");
    expect(error.message).toContain("req_loop_1");
    expect(error.message).not.toContain(API_KEY);
  });

  it("turns a 500 into a provider_error SpeechError once retries are spent", async () => {
    const server = await speechServer([jsonError(500, "The server had an error while processing your request.", "server_error")]);
    const tts = new OpenAISpeechSynthesizer({ apiKey: API_KEY, baseURL: server.baseURL, maxRetries: 0 });
    const error = await rejection(tts.synthesize("Hello."));
    expect(error.code).toBe("provider_error");
    expect(error.status).toBe(500);
    expect(error.message).toContain("HTTP 500");
    expect(error.message).toContain("The server had an error while processing your request.");
    expect(server.received).toHaveLength(1);
  });

  it("retries a transient 500 and returns the audio of the retry", async () => {
    const server = await speechServer([jsonError(500, "try again", "server_error", { "retry-after-ms": "1" }), pcmReply()]);
    const tts = new OpenAISpeechSynthesizer({ apiKey: API_KEY, baseURL: server.baseURL, maxRetries: 1 });
    const speech = await tts.synthesize("Hello.");
    expect(server.received).toHaveLength(2);
    expect(server.received[1]!.body).toEqual(server.received[0]!.body);
    expect(Array.from(speech.samples)).toEqual(Array.from(SAMPLES));
  });

  it("names the voice and model when the endpoint rejects the request", async () => {
    const server = await speechServer([jsonError(400, "Invalid voice 'robot'.", "invalid_request_error")]);
    const tts = new OpenAISpeechSynthesizer({ apiKey: API_KEY, baseURL: server.baseURL, voice: "robot", maxRetries: 0 });
    const error = await rejection(tts.synthesize("Hello."));
    expect(error.code).toBe("request_rejected");
    expect(error.status).toBe(400);
    expect(error.message).toContain(`voice "robot"`);
    expect(error.message).toContain("Invalid voice 'robot'.");
  });

  it("maps 429 to rate_limited", async () => {
    const server = await speechServer([jsonError(429, "Rate limit reached.", "requests")]);
    const tts = new OpenAISpeechSynthesizer({ apiKey: API_KEY, baseURL: server.baseURL, maxRetries: 0 });
    const error = await rejection(tts.synthesize("Hello."));
    expect(error.code).toBe("rate_limited");
    expect(error.status).toBe(429);
  });

  it("refuses a 200 that is not whole PCM16 audio", async () => {
    const server = await speechServer([
      { status: 200, headers: { "content-type": "audio/pcm" }, body: new Uint8Array([1, 2, 3]) },
      { status: 200, headers: { "content-type": "audio/pcm" }, body: new Uint8Array(0) },
      { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ audio: "not here" }) },
    ]);
    const tts = new OpenAISpeechSynthesizer({ apiKey: API_KEY, baseURL: server.baseURL, maxRetries: 0 });
    const odd = await rejection(tts.synthesize("one"));
    expect(odd.code).toBe("bad_audio");
    expect(odd.message).toContain("3 bytes");
    expect((await rejection(tts.synthesize("two"))).message).toContain("no audio");
    expect((await rejection(tts.synthesize("three"))).message).toContain("application/json");
  });

  it("reports an endpoint that cannot be reached as a network error naming it", async () => {
    const server = await speechServer([]);
    await server.close();
    const tts = new OpenAISpeechSynthesizer({ apiKey: API_KEY, baseURL: server.baseURL, maxRetries: 0 });
    const error = await rejection(tts.synthesize("Hello."));
    expect(error.code).toBe("network");
    expect(error.message).toContain(server.baseURL);
  });

  it("rejects a missing key and empty text before sending anything", async () => {
    expect(() => new OpenAISpeechSynthesizer({ apiKey: "" })).toThrow(SpeechError);
    const server = await speechServer([pcmReply()]);
    const tts = new OpenAISpeechSynthesizer({ apiKey: API_KEY, baseURL: server.baseURL });
    expect((await rejection(tts.synthesize("   "))).code).toBe("empty_text");
    expect((await rejection(tts.synthesize("x".repeat(4097)))).code).toBe("text_too_long");
    expect(server.received).toHaveLength(0);
  });

  it("stops waiting when the caller aborts, with the caller's reason", async () => {
    const server = await speechServer([{ ...pcmReply(), delayMs: 5_000 }]);
    const tts = new OpenAISpeechSynthesizer({ apiKey: API_KEY, baseURL: server.baseURL, maxRetries: 0 });
    const controller = new AbortController();
    const pending = tts.synthesize("Hello.", { signal: controller.signal });
    while (server.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error("trial cancelled"));
    await expect(pending).rejects.toThrow("trial cancelled");
  });
});
