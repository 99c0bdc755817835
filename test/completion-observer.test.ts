import { afterEach, describe, expect, it } from "vitest";
import { LiveCaller } from "../src/core/caller/live-caller";
import { staticDefault } from "../src/core/settings/schema";
import { engineFor } from "./settings-harness";
import { SettingsError } from "../src/core/settings/errors";
import { CompletionObserver } from "../src/core/trial/conversation/completion-observer";
import { USAGE, startJudgeServer, textResponse, type JudgeServer, type Reply } from "./judge-fixtures";
import { eventually } from "./live-helpers";

/**
 * The live completion observer against a loopback Responses server: the structured-output request it
 * sends, how it reads `should_drain`, when it asks again (rechecks after each new exchange, a rate
 * limit, one call at a time, never again once it said "drain"), failures, and the usage it records.
 * And `--no-semantic-drain`: the CLI then builds no observer, so the completion rule decides.
 */
let server: JudgeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const GOAL = "Book a patio table for two on August 20.";
const verdict = (should_drain: boolean, outcome = should_drain ? "resolved" : "unresolved"): Reply => ({
  status: 200,
  json: textResponse(JSON.stringify({ should_drain, outcome, reason: should_drain ? "Booked; the caller said goodbye." : "Still arranging the booking." })),
});

describe("the completion observer, against a loopback Responses server", () => {
  it("sends a strict structured-output request with the goal and the call so far, and records its usage", async () => {
    server = await startJudgeServer(() => verdict(false));
    const observer = new CompletionObserver({ model: "gpt-5.6-luna", apiKey: "sk-observer-1", baseURL: server.endpoint });
    observer.consider(0, GOAL, ["CALLER: I'd like a patio table for August 20.", "ASSISTANT: What time, and for how many?"]);
    await eventually(() => observer.usage.calls === 1 && server!.seen.length === 1 && observer.usage.input_tokens > 0, "the first verdict");
    const [{ auth, url, body }] = server.seen;
    expect([auth, url]).toEqual(["Bearer sk-observer-1", "/v1/responses"]);
    expect(body).toMatchObject({ model: "gpt-5.6-luna", store: false });
    expect(String(body.instructions)).toMatch(/Decide only whether the call is over/);
    expect(body.input).toEqual([{ role: "user", content: `The caller's goal: ${GOAL}\n\nThe call so far:\nCALLER: I'd like a patio table for August 20.\nASSISTANT: What time, and for how many?` }]);
    const format = (body.text as { format: Record<string, unknown> }).format;
    expect(format).toMatchObject({ type: "json_schema", name: "completion_verdict", strict: true });
    expect(format.schema).toMatchObject({
      type: "object",
      additionalProperties: false,
      required: ["should_drain", "outcome", "reason"],
      properties: { should_drain: { type: "boolean" }, outcome: { type: "string", enum: ["resolved", "refused", "unresolved"] }, reason: { type: "string" } },
    });
    expect(observer.drained()).toBeNull();
    expect(observer.usage).toEqual({ calls: 1, failures: 0, input_tokens: USAGE.input_tokens, output_tokens: USAGE.output_tokens });
  });

  it("asks again only after a new exchange and the rate limit, one call at a time, and stops once it said drain", async () => {
    const answers = [verdict(false), verdict(true), verdict(false)];
    server = await startJudgeServer((_body, n) => answers[n] ?? verdict(false));
    const observer = new CompletionObserver({ model: "m", apiKey: "", baseURL: server.endpoint, minIntervalMs: 3_000 });
    const lines = ["CALLER: Hi, a table please.", "ASSISTANT: For when?"];
    observer.consider(0, GOAL, lines);
    // Still in flight: however much time passes and the call grows, no second request.
    observer.consider(10_000, GOAL, [...lines, "CALLER: August 20."]);
    await eventually(() => server!.seen.length === 1 && observer.usage.input_tokens > 0, "the first verdict");
    expect(observer.usage.calls).toBe(1);
    // Nothing new since the last question (same line count): no recheck, whatever the time.
    observer.consider(20_000, GOAL, lines);
    // New lines within the rate limit of the last question (asked at 0): not yet.
    observer.consider(2_999, GOAL, [...lines, "CALLER: August 20, two people."]);
    expect(observer.usage.calls).toBe(1);
    // New lines after the limit: the recheck, which says drain.
    const more = [...lines, "CALLER: August 20, two people, Aiko Tanaka.", "ASSISTANT: Booked.", "CALLER: Bye!"];
    observer.consider(3_000, GOAL, more);
    await eventually(() => observer.drained() !== null, "the drain verdict");
    expect(observer.drained()).toEqual({ should_drain: true, outcome: "resolved", reason: "Booked; the caller said goodbye." });
    // Once drained, it is not asked again: a later "keep going" cannot undo the drain.
    observer.consider(60_000, GOAL, [...more, "ASSISTANT: Goodbye!"]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.seen).toHaveLength(2);
    expect(observer.usage).toMatchObject({ calls: 2, failures: 0 });
    // No key: no Authorization header at all.
    expect(server.seen.map((s) => s.auth)).toEqual([undefined, undefined]);
  });

  it("counts a failed call (an error status, or output that is not a verdict) and asks again at the next exchange", async () => {
    const answers: Reply[] = [
      { status: 400, json: { error: { type: "invalid_request_error", code: "invalid_value", message: "bad model", param: "model" } } },
      { status: 200, json: textResponse("not json") },
      { status: 200, json: textResponse(JSON.stringify({ should_drain: "yes" })) },
      verdict(true, "refused"),
    ];
    server = await startJudgeServer((_body, n) => answers[n]!);
    const observer = new CompletionObserver({ model: "m", apiKey: "k", baseURL: server.endpoint, minIntervalMs: 0 });
    const lines: string[] = [];
    for (let i = 0; i < 4; i++) {
      lines.push(`CALLER: line ${i}`);
      observer.consider(i, GOAL, lines);
      await eventually(() => observer.usage.calls === i + 1 && observer.usage.failures + (observer.drained() ? 1 : 0) === i + 1, `verdict ${i}`);
    }
    expect(server.seen).toHaveLength(4);
    expect(observer.usage).toEqual({ calls: 4, failures: 3, input_tokens: 3 * USAGE.input_tokens, output_tokens: 3 * USAGE.output_tokens });
    expect(observer.drained()).toMatchObject({ should_drain: true, outcome: "refused" });
  });
});

describe("--no-semantic-drain", () => {
  const io = { stdout: () => {}, stderr: () => {}, cwd: process.cwd(), alpha: {}, env: { OPENAI_API_KEY: "sk-cli-test" } };
  const settings = (...argv: string[]) => engineFor(argv, {}, io.env, true).conversation!;

  it("live conversations get a completion observer on --completion-model; with --no-semantic-drain none, so the rule decides", () => {
    const observed = settings("--live");
    expect(observed.caller({ voice: "ash" })).toBeInstanceOf(LiveCaller);
    expect(observed.observer!().model).toBe(staticDefault("completion_model"));
    expect(settings("--live", "--completion-model", "gpt-5.6-terra").observer!().model).toBe("gpt-5.6-terra");
    const rule = settings("--live", "--no-semantic-drain");
    expect(rule.caller({ voice: "ash" })).toBeInstanceOf(LiveCaller);
    expect(rule.observer).toBeUndefined();
    // Offline the rule always decides: the flag is refused rather than silently ignored.
    expect(settings().observer).toBeUndefined();
    expect(() => settings("--no-semantic-drain")).toThrow(SettingsError);
  });
});
