/**
 * Test fixtures for a client-delegation service: the restaurant served by crashlab's reference service,
 * a loopback proxy in front of it that breaks the contract one way at a time (so every fault is a real
 * service's answer, changed in flight), a server that answers the upgrade with a redirect, and the
 * restaurant target pointed at any of them.
 */
import { createServer, type Server } from "node:http";
import WebSocket, { WebSocketServer } from "ws";
import { PLAN } from "../crashlab/evaluations";
import { restaurantWorld } from "../crashlab/worlds/restaurant";
import { RESTAURANT_BACKEND_INSTRUCTIONS, RESTAURANT_FRONTEND_INSTRUCTIONS } from "../examples/restaurant/instructions";
import { restaurantPolicy, type RestaurantFault } from "../examples/restaurant/policy";
import { RESTAURANT_TOOLS } from "../examples/restaurant/tools";
import type { ConnectorLimits } from "../src/core/client-service/protocol";
import { startAssistantService, type AssistantService, type AssistantServiceOptions } from "../src/core/client-service/server";
import { gptLiveTarget } from "../src/core/gpt-live-target/adapter";
import { definePlan, type Plan } from "../src/core/run/plan";
import type { TargetSettings } from "../src/core/target/settings";

export const TOKEN = "test-service-token-0123456789abcdef-QRS";

/** The restaurant application as a separately running service (crashlab's reference service). */
export function restaurantService(options: Partial<AssistantServiceOptions> & { faults?: RestaurantFault[] } = {}): Promise<AssistantService> {
  const { faults, ...rest } = options;
  return startAssistantService({ token: TOKEN, policy: restaurantPolicy({ faults: faults ?? [] }), world: restaurantWorld, tools: RESTAURANT_TOOLS.map((t) => t.name), port: 0, ...rest });
}

/** The PLAN with one more target, `remote`: the restaurant's frontend on the simulator, its delegations answered at `endpoint`. */
export function remotePlan(endpoint: string, limits: Partial<ConnectorLimits> = {}): Plan {
  return definePlan({
    ...PLAN,
    targets: {
      ...PLAN.targets,
      remote: (settings: TargetSettings) =>
        gptLiveTarget({
          settings: { ...settings, client_service: { ...settings.client_service, endpoint, token: TOKEN } },
          instructions: RESTAURANT_FRONTEND_INSTRUCTIONS,
          backend_instructions: RESTAURANT_BACKEND_INSTRUCTIONS,
          tools: RESTAURANT_TOOLS,
          offline: { policy: restaurantPolicy() },
          client_service: { limits },
        }),
    },
    default_target: "remote",
  });
}

/**
 * The PLAN with one more target, `own`, that names its own client-delegation service (`client_service.endpoint`),
 * as a package author would: the run gives it only the token.
 */
export function ownEndpointPlan(endpoint: string): Plan {
  return definePlan({
    ...PLAN,
    targets: {
      ...PLAN.targets,
      own: (settings: TargetSettings) =>
        gptLiveTarget({
          settings,
          instructions: RESTAURANT_FRONTEND_INSTRUCTIONS,
          backend_instructions: RESTAURANT_BACKEND_INSTRUCTIONS,
          tools: RESTAURANT_TOOLS,
          offline: { policy: restaurantPolicy() },
          client_service: { endpoint },
        }),
    },
    default_target: "own",
  });
}

/** What a fault does to one message the service sent: pass it on (return it), change it, drop it (null), or act on the connection. */
export type Tamper = (message: Record<string, unknown>, link: { toEvaluator: (m: unknown) => void; raw: (data: string) => void; cut: () => void; seen: number }) => Record<string, unknown> | null;

/**
 * A proxy in front of a service: it authenticates the evaluator as the service would, opens its own
 * authenticated connection to the service, passes the evaluator's messages on as they are, and passes the
 * service's through `tamper`.
 */
export async function faultProxy(upstream: string, tamper: Tamper, options: { hold_open?: boolean } = {}): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  const sockets = new Set<WebSocket>();
  server.on("upgrade", (req, socket, head) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n");
    wss.handleUpgrade(req, socket, head, (down) => {
      const up = new WebSocket(upstream, { headers: { Authorization: `Bearer ${TOKEN}` } });
      sockets.add(down).add(up);
      const early: string[] = [];
      let seen = 0;
      const link = { toEvaluator: (m: unknown) => down.readyState === WebSocket.OPEN && down.send(JSON.stringify(m)), raw: (d: string) => down.readyState === WebSocket.OPEN && down.send(d), cut: () => down.terminate(), get seen() { return seen; } };
      down.on("message", (data) => (up.readyState === WebSocket.OPEN ? up.send(data.toString()) : early.push(data.toString())));
      up.on("open", () => early.splice(0).forEach((m) => up.send(m)));
      up.on("message", (data) => {
        seen++;
        const out = tamper(JSON.parse(data.toString()) as Record<string, unknown>, link);
        if (out) link.toEvaluator(out);
      });
      // hold_open: the evaluator's side stays open after the service closed its own (a service that never answers the end).
      up.on("close", () => !options.hold_open && down.readyState === WebSocket.OPEN && down.close());
      down.on("close", () => up.readyState === WebSocket.OPEN && up.close());
      for (const s of [up, down]) s.on("error", () => undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `ws://127.0.0.1:${port}/ws/assistant`,
    async close() {
      for (const s of sockets) s.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A server that answers every upgrade with a redirect to `to`, and counts whether anyone followed it there. */
export async function redirector(to: string): Promise<{ url: string; followed: () => number; close(): Promise<void> }> {
  let followed = 0;
  const server = createServer((req, res) => {
    if (req.url === "/target") followed++;
    res.writeHead(302, { location: to }).end();
  });
  server.on("upgrade", (req, socket) => {
    if (req.url === "/target") followed++;
    socket.end(`HTTP/1.1 302 Found\r\nLocation: ${to}\r\nContent-Length: 0\r\n\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return { url: `ws://127.0.0.1:${port}/ws/assistant`, followed: () => followed, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A pass-through that keeps every message the evaluator sends (the service's answers pass unchanged). */
export async function recordingProxy(upstream: string, sent: string[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer();
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (down) => {
      const up = new WebSocket(upstream, { headers: { Authorization: String(req.headers.authorization ?? "") } });
      const early: string[] = [];
      down.on("message", (d) => {
        sent.push(String(d));
        if (up.readyState === WebSocket.OPEN) up.send(String(d));
        else early.push(String(d));
      });
      up.on("open", () => early.splice(0).forEach((m) => up.send(m)));
      up.on("message", (d) => down.send(String(d)));
      up.on("close", () => down.close());
      down.on("close", () => up.close());
      up.on("error", () => undefined);
      down.on("error", () => undefined);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `ws://127.0.0.1:${(server.address() as { port: number }).port}/ws/assistant`,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
