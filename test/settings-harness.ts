/** Run settings from a command line as `crashlab run` resolves them, and what the engine makes of them, for tests that check either. */
import { parseRunArgs } from "../src/core/cli/options";
import { checkSettings, engineOptions } from "../src/core/runner/engine";
import { resolveServices } from "../src/core/services/endpoints";
import { envLayer } from "../src/core/settings/env-file";
import { planLayer, type RunDefaults } from "../src/core/settings/plan-defaults";
import { resolveSettings, type Resolution } from "../src/core/settings/resolve";

/** argv (and the environment, and a PLAN's defaults) resolved, with the checks `crashlab run` makes before anything runs. */
export function resolveArgs(argv: string[], defaults: RunDefaults = {}, env: Record<string, string> = {}): Resolution {
  const resolution = resolveSettings([parseRunArgs(argv).flags, envLayer(env, null), planLayer(defaults)]);
  checkSettings(resolution, env);
  return resolution;
}

/** The engine's options for argv, with the settings and every service resolved beside them. */
export function engineFor(argv: string[], defaults: RunDefaults = {}, env: Record<string, string> = {}, conversations = false) {
  const { settings, sources } = resolveArgs(argv, defaults, env);
  const name = (key: string) => sources[key]!.label;
  const options = engineOptions(settings, env, { package_digest: "test", cwd: process.cwd(), conversations }, undefined, name);
  return { ...options, settings, services: resolveServices(settings, env, name) };
}
