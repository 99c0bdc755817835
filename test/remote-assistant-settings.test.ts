/**
 * A client-delegation service's settings (docs/remote-assistant.md): where it may be, the token it is sent,
 * what the run becomes, and every refusal before anything runs — one paragraph each, never the token.
 */
import { describe, expect, it } from "vitest";
import { parseRunArgs } from "../src/core/cli/options";
import { UsageError } from "../src/core/cli/usage-error";
import { checkClientServiceEndpoint, clientServiceToken, isLoopbackHost } from "../src/core/services/client-service";
import { redactor } from "../src/core/services/redact";
import { SettingsError } from "../src/core/settings/errors";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { gptLiveTarget } from "../src/core/gpt-live-target/adapter";
import { DEFAULT_TARGET_SETTINGS, type TargetSettings } from "../src/core/target/settings";
import { cli } from "./cli-harness";
import { engineFor } from "./settings-harness";

const TOKEN = "svc-token-0123456789abcdefghijklmnop-XYZ";
const ENV = { OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN };
const URL_ = "wss://agent.example.com/ws/assistant";

describe("the service's endpoint", () => {
  it.each(["localhost", "127.0.0.1", "127.8.9.10", "[::1]", "::1", "LOCALHOST"])("%s is this machine", (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each(["example.com", "10.0.0.1", "128.0.0.1", "[::2]", "localhost.example.com", "0.0.0.0"])("%s is not", (host) => expect(isLoopbackHost(host)).toBe(false));

  it("takes wss:// anywhere and ws:// only to this machine", () => {
    expect(checkClientServiceEndpoint("--assistant-endpoint", URL_)).toBe(URL_);
    expect(checkClientServiceEndpoint("--assistant-endpoint", "ws://127.0.0.1:8795/ws/assistant")).toBe("ws://127.0.0.1:8795/ws/assistant");
    expect(checkClientServiceEndpoint("--assistant-endpoint", "ws://[::1]:8795/ws")).toBe("ws://[::1]:8795/ws");
  });

  it.each([
    ["plain ws:// to another host", "ws://agent.example.com/ws/assistant", /plain ws:\/\/ URL to agent\.example\.com, which is not this machine: .* use wss:\/\/ \(TLS\)/],
    ["credentials in the URL", "wss://user:hunter2-secret@agent.example.com/ws", /must not carry credentials in the URL \(user:password@…\)/],
    ["a token in the query", "wss://agent.example.com/ws?token=abc123secret", /must not have a query string or fragment \(got "\?<redacted>"/],
    ["a fragment", "wss://agent.example.com/ws#k", /must not have a query string or fragment/],
    ["http", "https://agent.example.com/ws", /takes a ws:\/\/ or wss:\/\/ URL/],
    ["no URL at all", "agent.example.com", /takes a wss:\/\/ URL of your client-delegation service/],
  ])("refuses %s, naming the setting and the fix", (_what, value, message) => {
    const check = () => checkClientServiceEndpoint("--assistant-endpoint", value);
    expect(check).toThrow(SettingsError);
    expect(check).toThrow(message);
    try {
      check();
    } catch (error) {
      for (const secret of ["hunter2-secret", "abc123secret"]) expect((error as Error).message).not.toContain(secret);
    }
  });
});

describe("the service's token", () => {
  it("is required, long, printable, and nobody else's key; the value never in a message", () => {
    expect(clientServiceToken(ENV, ENV, "--assistant-endpoint")).toBe(TOKEN);
    expect(() => clientServiceToken({}, {}, "--assistant-endpoint")).toThrow(/--assistant-endpoint needs OPENAI_CLIENT_ASSISTANT_TOKEN: set it in the environment or the env file/);
    for (const bad of ["short", "x".repeat(31), "x".repeat(513), `${"x".repeat(20)} ${"y".repeat(20)}`, "é".repeat(40)]) {
      const read = () => clientServiceToken({ OPENAI_CLIENT_ASSISTANT_TOKEN: bad }, {}, "--assistant-endpoint");
      expect(read).toThrow(/must be a dedicated random secret of 32 to 512 printable characters without spaces/);
      try {
        read();
      } catch (error) {
        expect((error as Error).message).not.toContain(bad);
      }
    }
    const sameAsOpenAI = { ...ENV, OPENAI_API_KEY: TOKEN };
    expect(() => clientServiceToken(sameAsOpenAI, sameAsOpenAI, "--assistant-endpoint")).toThrow(/OPENAI_CLIENT_ASSISTANT_TOKEN is the same value as OPENAI_API_KEY: the service's token must be its own secret/);
    const sameAsNamed = { ...ENV, GATEWAY_KEY: TOKEN };
    expect(() => clientServiceToken(sameAsNamed, sameAsNamed, "--assistant-endpoint")).toThrow(/same value as GATEWAY_KEY/);
  });

  it("is redacted from every output like every other key", () => {
    const redact = redactor([TOKEN]);
    const text = `connected with Authorization: Bearer ${TOKEN}; {"token": "${TOKEN}"} <b>${TOKEN}</b>`;
    expect(redact(text)).not.toContain(TOKEN);
    expect(redact(JSON.stringify({ note: TOKEN }))).toBe('{"note":"[REDACTED]"}');
  });
});

describe("--assistant-endpoint and the run it makes", () => {
  it("hands the target the endpoint and the token, runs in real time, and records only where the token came from", () => {
    const e = engineFor(["--assistant", "client", "--assistant-endpoint", URL_], {}, ENV);
    expect(e.target_settings).toMatchObject({ delegation: "client", client_backend: "policy", client_service: { endpoint: URL_, token: TOKEN }, credentials: { client_service: "OPENAI_CLIENT_ASSISTANT_TOKEN" } });
    expect(e.settings.real_time).toBe(true);
    expect(e.services.client_service).toEqual({ endpoint: URL_, token: TOKEN, credential: "OPENAI_CLIENT_ASSISTANT_TOKEN" });
    // The run's settings (what run.json stores) hold the endpoint, never the token.
    expect(JSON.stringify(e.settings)).not.toContain(TOKEN);
    expect(engineFor(["--assistant", "client", "--assistant-endpoint", URL_, "--no-real-time"], {}, ENV).settings.real_time).toBe(false);
  });

  it("comes from the environment, crashlab.toml's [assistant] endpoint or a PLAN's defaults too", () => {
    expect(engineFor(["--assistant", "client"], {}, { ...ENV, OPENAI_CLIENT_ASSISTANT_ENDPOINT: URL_ }).target_settings!.client_service).toEqual({ endpoint: URL_, token: TOKEN });
    expect(engineFor([], { assistant: "client", assistant_endpoint: URL_ }, ENV).target_settings!.client_service).toEqual({ endpoint: URL_, token: TOKEN });
    // From a file or the environment it is a default for client-delegation runs: a managed run leaves it alone.
    expect(engineFor([], {}, { ...ENV, OPENAI_CLIENT_ASSISTANT_ENDPOINT: URL_ }).target_settings!.client_service).toBeUndefined();
  });

  it.each([
    ["without --assistant client", ["--assistant-endpoint", URL_], ENV, /--assistant-endpoint is the service that answers client delegations: add --assistant client/],
    ["without its token", ["--assistant", "client", "--assistant-endpoint", URL_], {}, /--assistant-endpoint needs OPENAI_CLIENT_ASSISTANT_TOKEN/],
    ["with a Responses endpoint as well", ["--assistant", "client", "--assistant-endpoint", URL_, "--responses-endpoint", "https://gw.example.com/v1"], ENV, /--assistant-endpoint and --responses-endpoint both answer client delegations: give one/],
    ["as plain ws:// to another host", ["--assistant", "client", "--assistant-endpoint", "ws://agent.example.com/ws"], ENV, /not this machine/],
    ["with credentials in it", ["--assistant", "client", "--assistant-endpoint", "wss://u:p@agent.example.com/ws"], ENV, /must not carry credentials in the URL/],
  ])("is refused %s, before anything runs", (_what, argv, env, message) => {
    expect(() => engineFor(argv as string[], {}, env as Record<string, string>)).toThrow(message);
  });

  it("--offline is the default said out loud, and contradicts --live", () => {
    expect(parseRunArgs(["--offline", "--no-real-time"]).flags.values.get("live")).toBeUndefined();
    expect(() => parseRunArgs(["--offline", "--live"])).toThrow(UsageError);
    expect(() => parseRunArgs(["--live", "--offline"])).toThrow("--offline and --live contradict each other: --offline is the default (the local simulator), --live uses OpenAI's services; pass one");
  });
});

describe("a target that names its own client-delegation service", () => {
  const target = (endpoint: string, settings: Partial<TargetSettings> = {}) =>
    gptLiveTarget({
      settings: { ...DEFAULT_TARGET_SETTINGS, delegation: "client", client_service: { token: TOKEN }, ...settings },
      instructions: "x",
      backend_instructions: "y",
      tools: [],
      offline: { policy: restaurantPolicy() },
      client_service: { endpoint },
    });

  it("gets the run's token when the run names no endpoint, and the run's endpoint wins over its own", () => {
    expect(engineFor(["--assistant", "client"], {}, ENV).target_settings!.client_service).toEqual({ token: TOKEN });
    expect(engineFor(["--assistant", "client"], {}, ENV).target_settings!.credentials).toMatchObject({ client_service: "OPENAI_CLIENT_ASSISTANT_TOKEN" });
    expect(target("wss://own.example.com/ws").describe().settings).toMatchObject({ client_service: "wss://own.example.com/ws" });
    expect(target("wss://own.example.com/ws", { client_service: { endpoint: URL_, token: TOKEN } }).describe().settings).toMatchObject({ client_service: URL_ });
    // A managed (responses) target has no client-delegation service, whatever it names.
    expect(target("wss://own.example.com/ws", { delegation: "responses" }).describe().settings?.client_service).toBeUndefined();
  });

  it("has its own endpoint and the token checked as the run's are", () => {
    expect(() => target("ws://own.example.com/ws")).toThrow(/gptLiveTarget client_service\.endpoint is a plain ws:\/\/ URL to own\.example\.com/);
    expect(() => target("wss://own.example.com/ws", { api_key: TOKEN, mode: "live" })).toThrow(/is the same value as api_key/);
  });
});

describe("crashlab run refuses a bad service setting in one paragraph, exit 2, without the token", () => {
  it.each([
    ["no token", ["--assistant-endpoint", "ws://127.0.0.1:9/ws/assistant"], {}, "needs OPENAI_CLIENT_ASSISTANT_TOKEN"],
    ["the token is the OpenAI key", ["--assistant-endpoint", "ws://127.0.0.1:9/ws/assistant"], { ...ENV, OPENAI_API_KEY: TOKEN }, "is the same value as OPENAI_API_KEY"],
    ["plain ws:// to a non-loopback host", ["--assistant-endpoint", "ws://192.0.2.7:8795/ws/assistant"], ENV, "which is not this machine"],
    ["credentials in the URL", ["--assistant-endpoint", `wss://me:${TOKEN}@agent.example.com/ws`], ENV, "must not carry credentials in the URL"],
    ["--offline with --live", ["--offline", "--live"], ENV, "--offline and --live contradict each other"],
  ])("%s", async (_what, flags, env, message) => {
    const out = await cli(["run", "--assistant", "client", ...flags, "--example", "harbor_001", "--results-dir", "/nonexistent/never-written"], env as Record<string, string>);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(message);
    expect(out.stderr.trim().split("\n")).toHaveLength(1);
    expect(out.stderr + out.stdout).not.toContain(TOKEN);
  });
});
