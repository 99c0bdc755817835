import { describe, expect, it } from "vitest";
import { checkEndpointUrl } from "../src/core/services/credentials";
import { resolveJudgeSettings } from "../src/core/judge/judge";
import { LiveClient } from "../src/core/live/client";
import { redactUrls, urlForDisplay } from "../src/core/services/redact";
import { sessionConfig } from "./live-helpers";

/** A token in an endpoint's query string need not look like a key: every message shows the URL without it. */
const message = (f: () => unknown): string => {
  try {
    f();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
};

describe("endpoint URLs in messages", () => {
  it("urlForDisplay replaces the query string, the fragment and user:password@, whatever they hold", () => {
    expect(urlForDisplay("https://gw.example.com/v1?token=hunter2")).toBe("https://gw.example.com/v1?<redacted>");
    expect(urlForDisplay("wss://gw.example.com/live?model=x&sig=abc#frag")).toBe("wss://gw.example.com/live?<redacted>#<redacted>");
    expect(urlForDisplay("https://u:hunter2@gw.example.com/v1")).toBe("https://<redacted>@gw.example.com/v1");
    expect(urlForDisplay("not a url?token=hunter2")).toBe("not a url?<redacted>");
    expect(urlForDisplay("https://gw.example.com/v1")).toBe("https://gw.example.com/v1");
    expect(redactUrls('Invalid URL: "wss://h/x?token=hunter2" and http://a.b/c?d=e.')).toBe('Invalid URL: "wss://h/x?<redacted>" and http://a.b/c?<redacted>');
    // A URL with a space is found whole only when known.
    expect(redactUrls("Invalid URL: wss://a b/x?token=hunter2", ["wss://a b/x?token=hunter2"])).toBe("Invalid URL: wss://a b/x?<redacted>");
  });

  it("--endpoint with ?token=hunter2 is refused without printing the token", () => {
    const text = message(() => checkEndpointUrl("--endpoint", "wss://gw.example.com/live?token=hunter2", ["ws", "wss"], "wss://gw.example.com/v1/realtime", "--api-key-env"));
    expect(text).toContain('--endpoint must not have a query string or fragment (got "?<redacted>", not shown: a query may hold a token)');
    expect(text).not.toContain("hunter2");
    const fragment = message(() => checkEndpointUrl("--endpoint", "wss://gw.example.com/live#hunter2", ["ws", "wss"], "wss://gw.example.com/v1/realtime", "--api-key-env"));
    expect(fragment).toContain('(got "#<redacted>"');
    expect(fragment).not.toContain("hunter2");
    const unparsable = message(() => checkEndpointUrl("--responses-endpoint", "gw example?token=hunter2", ["http", "https"], "https://gw.example.com/v1", "--responses-api-key-env"));
    expect(unparsable).toBe('--responses-endpoint takes a http or https URL, e.g. https://gw.example.com/v1 (got "gw example?<redacted>")');
  });

  it("a judge endpoint that is not a URL, or not http, is named without its query", () => {
    const bad = message(() => resolveJudgeSettings({ endpoint: "gw example/v1?token=hunter2" }));
    expect(bad).toBe('judge endpoint "gw example/v1?<redacted>" is not a URL; give the base URL of a Responses-compatible server, e.g. http://127.0.0.1:8080/v1 (--judge-endpoint)');
    const scheme = message(() => resolveJudgeSettings({ endpoint: "ftp://gw.example.com/v1?token=hunter2" }));
    expect(scheme).toBe('judge endpoint "ftp://gw.example.com/v1?<redacted>" must be http:// or https:// (--judge-endpoint)');
  });

  it("a Live URL the socket cannot open is named without its query", async () => {
    const client = new LiveClient();
    let text = "";
    try {
      await client.connect({ url: "wss://exa mple/live?token=hunter2", apiKey: null, session: sessionConfig() });
    } catch (error) {
      text = (error as Error).message;
    }
    expect(text).toMatch(/^cannot open "wss:\/\/exa mple\/live\?<redacted>": /);
    expect(text).not.toContain("hunter2");
  });
});
