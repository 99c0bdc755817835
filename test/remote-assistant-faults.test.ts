/**
 * The fault corpus of a client-delegation service (docs/remote-assistant.md, "What each failure becomes"):
 * a real service (crashlab's reference service with the restaurant) broken one way at a time by a proxy
 * in flight, or refusing outright. Each fault ends its trial with its documented status and stage, one
 * sentence, no hang (the test's own timeout), and the token nowhere in the record.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrialRecord } from "../src/core/record/trial-record";
import type { AssistantService } from "../src/core/client-service/server";
import type { ConnectorLimits } from "../src/core/client-service/protocol";
import { run } from "../src/core/run/run";
import { EspeakSynthesizer } from "../src/core/speech/espeak";
import { cli, runFolder } from "./cli-harness";
import { faultProxy, ownEndpointPlan, recordingProxy, redirector, remotePlan, restaurantService, TOKEN, type Tamper } from "./remote-service-fixtures";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { unpackTrial } from "../src/core/report/html";
import { createServer } from "node:http";
import type { Duplex } from "node:stream";
import WebSocket from "ws";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startAssistantService } from "../src/core/client-service/server";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { restaurantWorld } from "../crashlab/worlds/restaurant";

const speech = new EspeakSynthesizer();
let service: AssistantService;

beforeAll(async () => {
  service = await restaurantService();
});
afterAll(async () => {
  await service.close();
});

/** One trial of `case_id` (a booking by default) against `endpoint`, in virtual time unless said otherwise. */
async function trialAt(endpoint: string, options: { limits?: Partial<ConnectorLimits>; case_id?: string; real_time?: boolean; trial_timeout_ms?: number; tool_calls?: number } = {}): Promise<TrialRecord> {
  const result = await run(remotePlan(endpoint, options.limits), {
    speech,
    selection: { ids: [options.case_id ?? "harbor_001"] },
    target_settings: { delegation: "client", real_time: options.real_time ?? false },
    real_time: options.real_time ?? false,
    concurrency: 1,
    limits: { ...(options.trial_timeout_ms ? { time_ms: options.trial_timeout_ms } : {}), ...(options.tool_calls ? { tool_calls: options.tool_calls } : {}) },
  });
  const record = result.records[0]!;
  expect(JSON.stringify(record)).not.toContain(TOKEN);
  return record;
}

async function throughProxy(tamper: Tamper, options: Parameters<typeof trialAt>[1] = {}, proxyOptions: { hold_open?: boolean } = {}): Promise<TrialRecord> {
  const proxy = await faultProxy(service.url, tamper, proxyOptions);
  try {
    return await trialAt(proxy.url, options);
  } finally {
    await proxy.close();
  }
}

function remoteFault(record: TrialRecord, message: RegExp): void {
  expect(record.status).toBe("infrastructure_error");
  expect(record.error?.stage).toBe("remote_service");
  expect(record.error?.message).toMatch(message);
  expect(record.error?.message).not.toMatch(/\n/);
}

function everyFile(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? everyFile(join(dir, name)) : [join(dir, name)]));
}

const eventOf = (m: Record<string, unknown>) => (m.type === "assistant.event" ? (m.event as Record<string, unknown>) : null);

describe("a client-delegation service that keeps the contract", () => {
  it("passes the booking through a proxy that changes nothing, with the reported evidence labelled", async () => {
    const record = await throughProxy((m) => m);
    expect(record.status).toBe("passed");
    expect(record.reported_evidence).toEqual({ by: "target", tool_calls: 1, state_snapshots: 2, initial_state: "applied" });
    expect(record.tool_executions).toEqual([expect.objectContaining({ name: "create_reservation", status: "completed", reported_by: "target" })]);
    expect(record.world.reported_by).toBe("target");
    expect(record.world.events).toEqual([expect.objectContaining({ operation: "create_reservation", kind: "write", outcome: "ok", reported_by: "target" })]);
    expect(record.checks.find((c) => c.id === "application_state")?.rationale).toMatch(/\(as reported by the target\)$/);
  });

  it("a second result for one tool call is one call: the trial passes, the call counted once, the log says it was ignored", async () => {
    const record = await throughProxy((m, link) => {
      if (eventOf(m)?.type === "tool.completed") link.toEvaluator(m);
      return m;
    });
    expect(record.status).toBe("passed");
    expect(record.tool_executions).toHaveLength(1);
    expect(record.reported_evidence).toMatchObject({ tool_calls: 1 });
    expect(record.events.find((e) => e.type === "error" && (e.data as { code?: string }).code === "remote_service_duplicate_tool_result")?.data).toMatchObject({ message: expect.stringMatching(/^ignored: duplicate tool result for tool call \S+$/), fatal: false });
  });

  it("a duplicate completion completes nothing more: the trial passes and the log says it was ignored", async () => {
    const record = await throughProxy((m, link) => {
      if (eventOf(m)?.type === "client_delegation.completed") link.toEvaluator(m);
      return m;
    });
    expect(record.status).toBe("passed");
    expect(record.events.some((e) => e.type === "error" && (e.data as { code?: string }).code === "remote_service_duplicate_completion")).toBe(true);
  });
});

describe("each fault of the service ends the trial as documented, in one sentence", () => {
  it("a wrong token: HTTP 401 before any Live session opens", async () => {
    const other = await restaurantService({ token: "another-service-token-0123456789abcdefgh" });
    try {
      const record = await trialAt(other.url);
      remoteFault(record, /^the client-delegation service at ws:\/\/127\.0\.0\.1:\d+\/ws\/assistant refused the token \(HTTP 401\): OPENAI_CLIENT_ASSISTANT_TOKEN must be the token the service was started with$/);
      expect(record.events.some((e) => e.type === "session.started")).toBe(false);
    } finally {
      await other.close();
    }
  });

  it("a redirect is refused, never followed with the token", async () => {
    const r = await redirector(`${service.url.replace("/ws/assistant", "")}/target`);
    try {
      remoteFault(await trialAt(r.url), /answered with a redirect \(HTTP 302\); crashlab does not follow redirects with the service's token: give the final wss:\/\/ URL/);
      expect(r.followed()).toBe(0);
    } finally {
      await r.close();
    }
  });

  it("a path nothing answers at: HTTP 404, check the URL's path", async () => {
    remoteFault(await trialAt(service.url.replace("/ws/assistant", "/ws/assistent")), /^the client-delegation service at ws:\/\/127\.0\.0\.1:\d+\/ws\/assistent answered HTTP 404: nothing takes WebSocket connections at that path; check the URL's path \(crashlab serve-assistant answers at \/ws\/assistant\)$/);
  });

  it("nobody listening: connection refused", async () => {
    remoteFault(await trialAt("ws://127.0.0.1:9/ws/assistant"), /cannot connect to the client-delegation service at ws:\/\/127\.0\.0\.1:9\/ws\/assistant: connection refused \(is it running\?\)/);
  });

  it("no session.ready within the configuration deadline", async () => {
    const record = await throughProxy((m) => (m.type === "session.ready" ? null : m), { limits: { configure_timeout_ms: 300 } });
    remoteFault(record, /did not answer session\.configure with session\.ready within 0\.3 s/);
  });

  it("an oversize message closes the connection (1009)", async () => {
    const record = await throughProxy((m, link) => {
      if (eventOf(m)?.type === "tool.called") link.raw(JSON.stringify({ type: "assistant.event", event: { type: "client_delegation.handoff", padding: "x".repeat(300 * 1024) } }));
      return m;
    });
    remoteFault(record, /^the client-delegation service sent a message larger than 262144 bytes \(the connector's limit\), so crashlab closed the connection with delegation dlg_1 unfinished$/);
  });

  it("more messages than the connector takes in one session", async () => {
    remoteFault(await throughProxy((m) => m, { limits: { max_events: 4 } }), /^protocol violation by the client-delegation service: the service sent more than 4 messages in one session \(the connector's limit\)$/);
  });

  it("an upgrade nobody answers: the connect deadline", async () => {
    const silent = createServer();
    const held: Duplex[] = [];
    silent.on("upgrade", (_req, socket: Duplex) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    try {
      const port = (silent.address() as { port: number }).port;
      remoteFault(await trialAt(`ws://127.0.0.1:${port}/ws/assistant`, { limits: { connect_timeout_ms: 300 } }), /did not accept the connection within 0\.3 s; check that it is running and reachable$/);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("the service at its connection limit: HTTP 503", async () => {
    const full = await restaurantService({ limits: { max_connections: 1 } });
    const holder = new WebSocket(full.url, { headers: { Authorization: `Bearer ${TOKEN}` } });
    await new Promise((resolve) => holder.once("open", resolve));
    try {
      remoteFault(await trialAt(full.url), /is at its connection limit \(HTTP 503\); lower --concurrency or raise the service's limit$/);
    } finally {
      holder.terminate();
      await full.close();
    }
  });

  it("no session.closed from the service after the session's end", async () => {
    remoteFault(await throughProxy((m) => (m.type === "session.closed" ? null : m), { limits: { close_timeout_ms: 300 } }, { hold_open: true }), /^the client-delegation service did not answer the session's end with session\.closed within 0\.3 s$/);
  });

  it("an unknown delegation id", async () => {
    const record = await throughProxy((m) => (m.type === "live.send" ? { ...m, event: { ...(m.event as object), delegation_id: "dlg_999" } } : m));
    remoteFault(record, /^protocol violation by the client-delegation service: the service sent commentary for delegation "dlg_999", which crashlab never forwarded \(unknown delegation id\)$/);
  });

  it("a completion for an unknown delegation id", async () => {
    const record = await throughProxy((m) => (eventOf(m)?.type === "client_delegation.completed" ? { ...m, event: { ...eventOf(m)!, delegation_id: "dlg_999" } } : m));
    remoteFault(record, /^protocol violation by the client-delegation service: the service completed delegation "dlg_999", which crashlab never forwarded \(unknown delegation id\)$/);
  });

  it("commentary after its delegation completed", async () => {
    let answer: Record<string, unknown> | null = null;
    const record = await throughProxy((m, link) => {
      if (m.type === "live.send") answer = m;
      if (eventOf(m)?.type === "client_delegation.completed" && answer) {
        link.toEvaluator(m);
        return answer;
      }
      return m;
    });
    remoteFault(record, /^protocol violation by the client-delegation service: the service sent commentary for delegation dlg_1 after it had completed it$/);
  });

  it("a completion before the result", async () => {
    const record = await throughProxy((m) => (m.type === "live.send" ? null : m));
    remoteFault(record, /^protocol violation by the client-delegation service: the service completed delegation dlg_1 before sending its result \(no commentary for it yet\)$/);
  });

  it("a disconnect mid-delegation names what was left unfinished", async () => {
    const record = await throughProxy((m, link) => {
      if (eventOf(m)?.type === "tool.called") {
        link.cut();
        return null;
      }
      return m;
    });
    remoteFault(record, /^the client-delegation service closed its connection unexpectedly \(code 1006\) with delegation dlg_1 unfinished$/);
  });

  it("its backend's error", async () => {
    const record = await throughProxy((m) => (eventOf(m)?.type === "tool.called" ? { type: "assistant.event", event: { type: "error", error: { code: "client_delegation_failed", message: `private detail ${TOKEN}` } } } : m));
    remoteFault(record, /^the client-delegation service reported that its backend failed \(client_delegation_failed\)$/);
  });

  it("a message type the contract does not have", async () => {
    remoteFault(await throughProxy((m) => (m.type === "live.send" ? { type: "live.sendd", event: m.event } : m)), /unsupported message type "live\.sendd"/);
  });

  it("session.closed before the Live session ended", async () => {
    remoteFault(await throughProxy((m) => (eventOf(m)?.type === "tool.called" ? { type: "session.closed" } : m)), /ended the session before the Live session ended/);
  });

  it("a slow service past the delegation deadline is the target's own failure, not infrastructure", async () => {
    const record = await throughProxy((m) => (eventOf(m)?.type === "tool.called" || m.type === "live.send" || eventOf(m)?.type === "client_delegation.completed" || eventOf(m)?.type === "tool.completed" || eventOf(m)?.type === "response.completed" ? null : m), {
      limits: { delegation_timeout_ms: 400 },
    });
    expect(record.status).toBe("failed");
    expect(record.error).toBeNull();
    const completed = record.checks.find((c) => c.id === "conversation_completed")!;
    expect(completed.status).toBe("failed");
    expect(completed.rationale).toMatch(/^response_timeout: no complete response within 30 s of the end of caller audio \(still waiting for: .*1 client delegation\(s\)/);
    expect(record.events.find((e) => e.type === "error" && (e.data as { code?: string }).code === "remote_service_deadline")?.data).toMatchObject({
      message: "the client-delegation service did not complete delegation dlg_1 within 0.4 s (its delegation deadline); crashlab stopped waiting for it",
      fatal: false,
    });
  });

  it("its reported tool calls count against the tool-call limit: the target's failure", async () => {
    const doubled = await restaurantService({ faults: ["double_books"] });
    try {
      const record = await trialAt(doubled.url, { tool_calls: 1 });
      expect(record.status).toBe("failed");
      expect(record.limits.usage.exceeded).toBe("tool_calls");
      expect(record.checks.find((c) => c.id === "conversation_completed")?.rationale).toMatch(/limit tool_calls exceeded \(2\)/);
      // Stopped by the limit, not by a fault of the service: no protocol violation, and the work it was doing is left unfinished beside it.
      expect(record.events.some((e) => e.type === "error" && (e.data as { fatal?: boolean }).fatal)).toBe(false);
      expect(record.cleanup_errors).toEqual([{ stage: "remote_service", message: "the client-delegation service still had delegation dlg_1 unfinished when the session ended" }]);
    } finally {
      await doubled.close();
    }
  });

  it("work left unfinished when the trial stops at a limit is recorded beside the target's failure, at remote_service", async () => {
    // Real time: the trial's own limit (wall clock) stops it while the service sits on the delegation.
    const record = await throughProxy((m) => (m.type === "session.ready" || m.type === "session.fixture.applied" || m.type === "session.closed" ? m : null), { real_time: true, trial_timeout_ms: 9000 });
    expect(record.status).toBe("failed");
    expect(record.limits.usage.exceeded).toBe("time_ms");
    expect(record.cleanup_errors).toEqual([{ stage: "remote_service", message: "the client-delegation service still had delegation dlg_1 unfinished when the session ended" }]);
  }, 60_000);
});

describe("a PLAN target that names its own service", () => {
  it("is evaluated through it with the run's token: its calls and state the target's reports", async () => {
    // The target's own endpoint is a recording proxy in front of the service: what it takes down went there.
    const sent: string[] = [];
    const recorder = await recordingProxy(service.url, sent);
    try {
      const result = await run(ownEndpointPlan(recorder.url), { speech, selection: { ids: ["harbor_001"] }, target_settings: { delegation: "client", client_service: { token: TOKEN } }, concurrency: 1 });
      const record = result.records[0]!;
      expect(record.status).toBe("passed");
      expect(record.reported_evidence).toMatchObject({ by: "target", tool_calls: 1, initial_state: "applied" });
      expect(sent[0]).toMatch(/^\{"type":"session\.configure"/);
      expect(JSON.stringify(record)).not.toContain(TOKEN);
    } finally {
      await recorder.close();
    }
  });
});

describe("provisioning", () => {
  it("a service that accepts no fixtures starts from its own state: the record says so, and an unprovisioned cancellation fails on the reported state", async () => {
    const unprovisioned = await startAssistantService({ token: TOKEN, policy: restaurantPolicy(), world: restaurantWorld, port: 0, accepts_fixtures: false });
    try {
      const provisioned = await trialAt(service.url, { case_id: "harbor_013" });
      expect(provisioned.status).toBe("passed");
      const record = await trialAt(unprovisioned.url, { case_id: "harbor_013" });
      expect(record.reported_evidence).toMatchObject({ initial_state: "not_accepted" });
      expect(record.status).toBe("failed");
      expect(record.tool_executions).toEqual([expect.objectContaining({ name: "cancel_reservation", status: "failed", reported_by: "target" })]);
    } finally {
      await unprovisioned.close();
    }
  });
});

describe("the service's token appears in no output", () => {
  it("a service that echoes it in what it says and reports leaves no trace of it in any file or on the console", async () => {
    const proxy = await faultProxy(service.url, (m) => {
      if (m.type === "live.send") return { ...m, event: { ...(m.event as object), content: `Your code is ${TOKEN}. ${(m.event as { content: string }).content}` } };
      const e = eventOf(m);
      return e?.type === "tool.completed" ? { ...m, event: { ...e, result: { ...(e.result as object), note: TOKEN } } } : m;
    });
    const out = mkdtempSync(join(tmpdir(), "remote-token-echo-"));
    try {
      const r = await cli(["run", "--assistant", "client", "--assistant-endpoint", proxy.url, "--no-real-time", "--example", "harbor_001", "--results-dir", out, "--verbose", "--json"], { OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN });
      const dir = runFolder(out);
      const files = everyFile(dir).filter((f) => !f.endsWith(".wav"));
      const read = (f: string) => (f.endsWith(".gz") ? gunzipSync(readFileSync(f)).toString("utf8") : readFileSync(f, "utf8"));
      const unpacked = (text: string) => [text, ...[...text.matchAll(/<script type="application\/x-crashlab-trial" id="trial-\d+">([^<]*)<\/script>/g)].map((m) => unpackTrial(m[1]!))];
      const texts = [...files.flatMap((f) => unpacked(read(f))), r.stdout, r.stderr];
      for (const text of texts) expect(text).not.toContain(TOKEN);
      // Not vacuous: the echo reached the outputs, redacted.
      expect(readFileSync(join(dir, "transcripts", "harbor_001.r1.json"), "utf8")).toContain("[REDACTED]");
      expect(r.stderr).toContain("[REDACTED]");
    } finally {
      await proxy.close();
    }
  });
});

describe("crashlab run against a refusing service", () => {
  it("a wrong token: every trial an infrastructure error at remote_service, exit 3, the token nowhere", async () => {
    const out = mkdtempSync(join(tmpdir(), "remote-wrong-token-"));
    const result = await cli(["run", "--assistant", "client", "--assistant-endpoint", service.url, "--no-real-time", "--example", "harbor_001", "--results-dir", out, "--quiet"], {
      OPENAI_CLIENT_ASSISTANT_TOKEN: "a-wrong-token-0123456789abcdefghijklmno",
    });
    expect(result.code).toBe(3);
    const results = readFileSync(join(runFolder(out), "results.json"), "utf8");
    expect(JSON.parse(results).trials[0]).toMatchObject({ status: "infrastructure_error", error: { stage: "remote_service", message: expect.stringContaining("refused the token (HTTP 401)") } });
    expect(results + result.stdout + result.stderr).not.toContain("a-wrong-token-0123456789abcdefghijklmno");
  });
});
