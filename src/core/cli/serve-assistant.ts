/**
 * `crashlab serve-assistant`: one of the package's targets — its offline policy and its world — served as a
 * separately running client-delegation service (docs/remote-assistant.md), so `crashlab run --assistant
 * client --assistant-endpoint …` (or the public reference harness) can evaluate it over the wire. Loopback
 * only, token required, until Ctrl-C.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { DEFAULT_SERVICE_LIMITS, type ServiceLimits } from "../client-service/protocol";
import { HEALTH_PATH, LOOPBACK_HOSTS, originProblem, startAssistantService } from "../client-service/server";
import { findPackage, loadPackage, shownPath } from "../package/load";
import { clientServiceToken, CLIENT_SERVICE_TOKEN_ENV } from "../services/client-service";
import { redactor } from "../services/redact";
import { projectDir } from "../settings/config-file";
import { credentialsOf, ENV_FILE, readEnvFile } from "../settings/env-file";
import { CREDENTIALS } from "../settings/schema";
import { DEFAULT_TARGET_SETTINGS, instantiateTarget } from "../target/settings";
import type { Plan } from "../run/plan";
import { decimalNumber, parseFlags, wholeNumber } from "./flags";
import type { CliIO } from "./io";
import { UsageError } from "./usage-error";

export const SERVE_ASSISTANT_HELP = `crashlab serve-assistant — serve a target's offline policy and world as a client-delegation service

Usage: crashlab serve-assistant [--port N] [options]

Serves ws://127.0.0.1:N/ws/assistant (also at ws://127.0.0.1:N/) and a public ${HEALTH_PATH} until Ctrl-C.
Every connection must send Authorization: Bearer <OPENAI_CLIENT_ASSISTANT_TOKEN> (read from the environment
or the env file); a request with a browser Origin is refused unless that exact Origin is allowed. Each
connection gets a fresh world, given the scenario's initial state when the evaluator sends it. Then, in
another shell with the same token:

  crashlab run --assistant client --assistant-endpoint ws://127.0.0.1:N/ws/assistant

  --port <n>                      the port (default 8795; 0: any free port, printed)
  --host <host>                   ${LOOPBACK_HOSTS.join(", ")} only (default 127.0.0.1)
  --package <path>                the evaluation package (default ./crashlab/evaluations.ts)
  --target <name>                 the PLAN's target whose offline policy answers (default the PLAN's default)
  --world <name>                  the world, when the PLAN's cases use more than one
  --allow-origin <origin>         an exact browser Origin to accept (repeatable); never replaces the token
  --no-fixtures                   do not accept the scenario's initial state: provision state yourself
  --env-file <file>               read OPENAI_CLIENT_ASSISTANT_TOKEN from this file (default .env beside the package)
  --max-connections <n>           connections at once (default ${DEFAULT_SERVICE_LIMITS.max_connections}; one more gets HTTP 503)
  --max-pending-delegations <n>   delegations at work per connection (default ${DEFAULT_SERVICE_LIMITS.max_pending_delegations})
  --max-delegations <n>           delegations per connection in all (default ${DEFAULT_SERVICE_LIMITS.max_delegations})
  --max-message-bytes <n>         the largest message either way (default ${DEFAULT_SERVICE_LIMITS.max_message_bytes})
  --max-session-bytes <n>         all a session may send (default ${DEFAULT_SERVICE_LIMITS.max_session_bytes})
  --max-events <n>                messages a session may send (default ${DEFAULT_SERVICE_LIMITS.max_events})
  --configure-timeout-seconds <s> from the upgrade to session.configure (default ${DEFAULT_SERVICE_LIMITS.configure_timeout_ms / 1000})
  --session-timeout-seconds <s>   a session's whole life (default ${DEFAULT_SERVICE_LIMITS.session_timeout_ms / 1000})
  --delegation-timeout-seconds <s>
                                  one delegation's work (default ${DEFAULT_SERVICE_LIMITS.delegation_timeout_ms / 1000})
  -h, --help                      this text`;

const COUNTS = { "max-connections": "max_connections", "max-pending-delegations": "max_pending_delegations", "max-delegations": "max_delegations", "max-message-bytes": "max_message_bytes", "max-session-bytes": "max_session_bytes", "max-events": "max_events" } as const;
const SECONDS = { "configure-timeout-seconds": "configure_timeout_ms", "session-timeout-seconds": "session_timeout_ms", "delegation-timeout-seconds": "delegation_timeout_ms" } as const;

export async function serveAssistantCommand(argv: string[], io: CliIO): Promise<number> {
  const { values: parsed } = parseFlags(argv, {
    port: { type: "string" },
    host: { type: "string" },
    package: { type: "string" },
    target: { type: "string" },
    world: { type: "string" },
    "allow-origin": { type: "string", multiple: true },
    "no-fixtures": { type: "boolean" },
    "env-file": { type: "string" },
    help: { type: "boolean", short: "h" },
    ...Object.fromEntries([...Object.keys(COUNTS), ...Object.keys(SECONDS)].map((k) => [k, { type: "string" as const }])),
  });
  const values = parsed as Record<string, string | string[] | boolean | undefined>;
  if (values.help) {
    io.stdout(SERVE_ASSISTANT_HELP + "\n");
    return 0;
  }
  const port = values.port === undefined ? 8795 : wholeNumber("--port", values.port as string, { min: 0, max: 65_535 });
  const host = (values.host as string | undefined) ?? "127.0.0.1";
  if (!(LOOPBACK_HOSTS as readonly string[]).includes(host))
    throw new UsageError(`--host ${host}: the reference client-delegation service binds to this machine only (${LOOPBACK_HOSTS.join(", ")}); put a TLS-terminating proxy in front of it to reach it from elsewhere`);
  const origins = (values["allow-origin"] as string[] | undefined) ?? [];
  for (const origin of origins) {
    const problem = originProblem(origin);
    if (problem) throw new UsageError(`--allow-origin ${problem}`);
  }
  const limits: Partial<ServiceLimits> = {};
  for (const [flag, key] of Object.entries(COUNTS)) if (values[flag] !== undefined) limits[key] = wholeNumber(`--${flag}`, values[flag] as string, { min: 1, max: 1_000_000_000 });
  for (const [flag, key] of Object.entries(SECONDS)) if (values[flag] !== undefined) limits[key] = Math.round(decimalNumber(`--${flag}`, values[flag] as string, { min: 0.001, max: 86_400 }) * 1000);

  const file = findPackage(io.cwd, values.package as string | undefined);
  const envPath = values["env-file"] !== undefined ? resolve(io.cwd, values["env-file"] as string) : join(projectDir(file), ENV_FILE);
  const envFile = values["env-file"] !== undefined || existsSync(envPath) ? readEnvFile(envPath, shownPath(io.cwd, envPath)) : null;
  const credentials = credentialsOf(Object.keys(CREDENTIALS), io.env ?? {}, envFile).values;
  const token = clientServiceToken(credentials, credentials, "crashlab serve-assistant");
  const redact = redactor([token]);
  const say = (line: string) => io.stderr(redact(`crashlab serve-assistant: ${line}\n`));

  const pkg = await loadPackage(file, io.alpha);
  const plan = pkg.plan;
  const name = (values.target as string | undefined) ?? plan.default_target ?? Object.keys(plan.targets)[0];
  const entry = name === undefined ? undefined : plan.targets[name];
  if (!entry || name === undefined) throw new UsageError(`--target ${name ?? ""}: the PLAN has no such target (it has ${Object.keys(plan.targets).join(", ")})`);
  const target = instantiateTarget(entry, { ...DEFAULT_TARGET_SETTINGS, delegation: "client" });
  if (!target.policy) throw new UsageError(`target "${name}" has no offline policy to serve (serve-assistant serves a target built with an offline policy: gptLiveTarget({ offline: { policy } }) or policyTarget)`);
  const world = chooseWorld(plan.cases.map((c) => c.world), values.world as string | undefined);
  let service;
  try {
    service = await startAssistantService({
      token,
      policy: target.policy,
      world,
      tools: target.session().tools.map((t) => t.name),
      host: host as (typeof LOOPBACK_HOSTS)[number],
      port,
      allowed_origins: origins,
      limits,
      accepts_fixtures: values["no-fixtures"] !== true,
      log: (line) => say(line),
    });
  } catch (error) {
    if ((error as { code?: string }).code === "EADDRINUSE") throw new UsageError(`--port ${port} is in use on ${host}: pick another port with --port N (0 picks any free one)`);
    throw error;
  }
  const httpHost = host === "::1" ? "[::1]" : host;
  say(
    `target ${name} (policy ${target.policy.name}@${target.policy.version}, world ${world.name}@${world.version}) is answering client delegations at ${service.url} (health: http://${httpHost}:${service.port}${HEALTH_PATH}); ${values["no-fixtures"] ? "scenario fixtures refused: provision state yourself" : "scenario fixtures accepted"}; Ctrl-C stops`,
  );
  say(`evaluate it with the same ${CLIENT_SERVICE_TOKEN_ENV}: crashlab run --assistant client --assistant-endpoint ${service.url}`);
  if (io.signal) {
    await new Promise<void>((done) => {
      if (io.signal!.aborted) done();
      else io.signal!.addEventListener("abort", () => done(), { once: true });
    });
  }
  await service.close();
  say("stopped");
  return 0;
}

/** The world to serve: the PLAN's only one, or the one `--world` names. */
type PlanWorld = Plan["cases"][number]["world"];
function chooseWorld(worlds: readonly PlanWorld[], wanted: string | undefined): PlanWorld {
  const byName = new Map(worlds.map((w) => [w.name, w]));
  if (byName.size === 0) throw new UsageError("the PLAN has no cases, so no world to serve: add cases (crawl(), walk(), converse()) with their world");
  if (wanted !== undefined) {
    const world = byName.get(wanted);
    if (!world) throw new UsageError(`--world ${wanted}: the PLAN's cases use no such world (they use ${[...byName.keys()].join(", ")})`);
    return world;
  }
  if (byName.size > 1) throw new UsageError(`the PLAN's cases use ${byName.size} worlds (${[...byName.keys()].join(", ")}): name the one to serve with --world NAME`);
  return [...byName.values()][0]!;
}
