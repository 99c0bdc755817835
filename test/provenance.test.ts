/**
 * What ran, through the real CLI, on a package whose adapter imports files outside its folder (made here,
 * in a temporary git repository, from `crashlab init`), one of them in a second git repository beside it:
 * each thing the target runs, sends or is configured with — an imported file outside the package folder
 * (in its own repository or the other one), a tool's description, a tool's parameter schema, the
 * instructions, the models, the voice, the delegation mode, the endpoint, the simulator's faults, a
 * variant, the lockfile, a dependency's installed version — changes the digest when edited, one at a time,
 * in the part it belongs to; a whitespace edit of a file nothing imports, or another key for the same
 * endpoint, does not (and no key is written anywhere).
 * The git state covers every repository a loaded file lives in; run.json lists the files; `crashlab
 * describe` shows them; `compare` names the part that changed, says when nothing did, and flags a model
 * the local simulator reports instead of the one asked for, as the report does.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pcm16ToBytes } from "../src/core/audio/pcm";
import { overviewHtml } from "../src/core/report/client/overview";
import type { ReportData } from "../src/core/report/client/data";
import { startLiveSimulator } from "../src/core/simulator/server";
import { EspeakSynthesizer } from "../src/core/speech/espeak";
import { DEFAULT_CALLER_VOICE } from "../src/core/speech/synthesizer";
import { shopPolicy } from "../templates/init/crashlab/policy";
import { cli, runFolder } from "./cli-harness";
import { toneSynthesizer } from "./live-helpers";

/** The folder holding both repositories: `shop` (the package's) and `shared` (a library it imports from). */
let top: string;
let repo: string;
let shared: string;
const gitIn = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] }).toString();
const git = (...args: string[]) => gitIn(repo, ...args);

const TARGETS = `import { gptLiveTarget, policyTarget, type TargetEntry } from "crashlab/alpha";
import { shopPolicy } from "../../app/policy";
import { INSTRUCTIONS, BACKEND_INSTRUCTIONS, TOOLS } from "../../app/assistant";

export function shopTargets(): Record<string, TargetEntry> {
  return {
    assistant: (settings) => gptLiveTarget({ settings, instructions: INSTRUCTIONS, backend_instructions: BACKEND_INSTRUCTIONS, tools: TOOLS, offline: { policy: shopPolicy() } }),
    // The same assistant, with the local simulator reporting another voice model than the one asked for.
    assistant_other_model: (settings) =>
      gptLiveTarget({ settings, instructions: INSTRUCTIONS, backend_instructions: BACKEND_INSTRUCTIONS, tools: TOOLS, offline: { policy: shopPolicy(), reported_models: { model: "gpt-live-mini" } } }),
    // The simulator told to show a fault in every session: two plans.
    assistant_unknown_event: (settings) =>
      gptLiveTarget({ settings, instructions: INSTRUCTIONS, backend_instructions: BACKEND_INSTRUCTIONS, tools: TOOLS, offline: { policy: shopPolicy(), faults: [{ kind: "unknown_event", atInputMs: 400 }] } }),
    assistant_binary_frame: (settings) =>
      gptLiveTarget({ settings, instructions: INSTRUCTIONS, backend_instructions: BACKEND_INSTRUCTIONS, tools: TOOLS, offline: { policy: shopPolicy(), faults: [{ kind: "binary_frame", atInputMs: 400 }] } }),
    assistant_text: () => policyTarget({ policy: shopPolicy(), instructions: INSTRUCTIONS, tools: TOOLS }),
    assistant_text_cedar: () => policyTarget({ policy: shopPolicy(), instructions: INSTRUCTIONS, tools: TOOLS, voice: "cedar" }),
    assistant_text_client: () => policyTarget({ policy: shopPolicy(), instructions: INSTRUCTIONS, tools: TOOLS, delegation: "client" }),
    assistant_text_variant: () => policyTarget({ policy: shopPolicy(), instructions: INSTRUCTIONS, tools: TOOLS, settings: { variant: "b" } }),
  };
}
`;

const ASSISTANT = `import { toolDeclarations } from "crashlab/alpha";
import { shopWorld } from "../crashlab/worlds/shop";
import { SIGN_OFF } from "../../shared/sign-off";

export const INSTRUCTIONS = \`You answer the phone for the bike shop. For bookings and days, delegate to the backend. \${SIGN_OFF}\`;
export const BACKEND_INSTRUCTIONS = "Use check_day for a day and book_service once to book.";
export const TOOLS = toolDeclarations(shopWorld).map((t) => ({
  ...t,
  description: \`\${t.description} (shop desk)\`,
  parameters: { ...t.parameters, description: "The booking request's fields" },
}));
`;

beforeAll(async () => {
  top = mkdtempSync(join(tmpdir(), "crashlab-provenance-"));
  repo = join(top, "shop");
  shared = join(top, "shared");
  // A second repository beside the package's: a library the assistant's module imports by relative path.
  mkdirSync(shared);
  writeFileSync(join(shared, "sign-off.ts"), 'export const SIGN_OFF = "Say goodbye by name.";\n');
  writeFileSync(join(shared, "unused.ts"), "export const NOTHING_HERE = 2;\n");
  gitIn(shared, "init", "-q");
  gitIn(shared, "add", "-A");
  gitIn(shared, "commit", "-qm", "the shared library");
  expect((await cli(["init", repo])).code).toBe(0);
  // The scaffold's policy and facts move out of the package folder; the adapter's instructions and tools too.
  mkdirSync(join(repo, "app"));
  for (const f of ["policy.ts", "facts.ts"]) renameSync(join(repo, "crashlab", f), join(repo, "app", f));
  const rewrite = (file: string, from: string, to: string) => writeFileSync(join(repo, file), readFileSync(join(repo, file), "utf8").replaceAll(from, to));
  rewrite("crashlab/evaluations.ts", `"./facts"`, `"../app/facts"`);
  rewrite("crashlab/worlds/shop.ts", `"../facts"`, `"../../app/facts"`);
  writeFileSync(join(repo, "crashlab", "adapters", "targets.ts"), TARGETS);
  writeFileSync(join(repo, "app", "assistant.ts"), ASSISTANT);
  writeFileSync(join(repo, "app", "unused.ts"), "export const NOTHING = 1;\n");
  writeFileSync(join(repo, ".gitignore"), "results/\nnode_modules/\n");
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "the shop");
});

afterAll(() => rmSync(top, { recursive: true, force: true }));

interface Ran {
  dir: string;
  provenance: {
    digest: string;
    parts: Record<string, string>;
    target_parts: Record<string, string>;
    git: { commit: string; dirty: boolean; repositories: Array<{ root: string; commit: string; dirty: boolean; changed: string[] }> };
    models: { requested: Record<string, string | null>; observed: Record<string, string[]>; mismatches: string[] };
  };
  /** The trial's whole results.json row. */
  trial: { status: string; error: { stage: string; message: string } | null; metrics: { consumption: { backend: { total: number; per_model: Record<string, { total: number }> } | null } } };
  stdout: string;
}

/** One trial through `crashlab run`; unless `failing`, it must run without a word on stderr. */
async function run(target: string, extra: string[] = [], options: { example?: string; env?: Record<string, string>; failing?: boolean } = {}): Promise<Ran> {
  const out = mkdtempSync(join(tmpdir(), "crashlab-provenance-run-"));
  const r = await cli(["run", "--package", join(repo, "crashlab"), "--target", target, "--example", options.example ?? "shop_book_service", "--results-dir", out, "--quiet", ...extra], options.env);
  if (!options.failing) expect(r.stderr).toBe("");
  const dir = runFolder(out);
  const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
  return { dir, provenance: results.trials[0].provenance, trial: results.trials[0], stdout: r.stdout };
}

/** Edit a file (relative to the package's repository), run, put the file back. */
async function edited(file: string, change: (text: string) => string, target = "assistant_text"): Promise<Ran> {
  const path = join(repo, file);
  const before = readFileSync(path, "utf8");
  const after = change(before);
  expect(after).not.toBe(before);
  writeFileSync(path, after);
  try {
    return await run(target);
  } finally {
    writeFileSync(path, before);
  }
}

/** The target digest parts that differ between two runs. */
const changedParts = (a: Ran, b: Ran) => Object.keys(a.provenance.target_parts).filter((k) => a.provenance.target_parts[k] !== b.provenance.target_parts[k]);

/** Both repositories clean, each at its commit: the shared library first (its folder sorts first). */
const cleanRepositories = () => [
  { root: "../shared", commit: gitIn(shared, "rev-parse", "HEAD").trim(), dirty: false, changed: [] },
  { root: ".", commit: git("rev-parse", "HEAD").trim(), dirty: false, changed: [] },
];

describe("the digest of what ran", () => {
  let base: Ran;
  beforeAll(async () => {
    base = await run("assistant_text");
  });

  it("lists every module the package loaded, inside and outside its folder and its repository, in run.json and describe", async () => {
    const meta = JSON.parse(readFileSync(join(base.dir, "run.json"), "utf8"));
    const paths = meta.package.files.map((f: { path: string }) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["../shared/sign-off.ts", "app/assistant.ts", "app/facts.ts", "app/policy.ts", "crashlab/adapters/targets.ts", "crashlab/evaluations.ts", "crashlab/worlds/shop.ts"]));
    expect(paths).not.toContain("app/unused.ts");
    expect(paths).not.toContain("../shared/unused.ts");
    expect(paths.some((p: string) => p.includes("data/"))).toBe(false);
    expect(meta.package.package_dir).toBe("crashlab");
    expect(meta.package.digest).toBe(base.provenance.parts.package);
    const policy = meta.package.files.find((f: { path: string }) => f.path === "app/policy.ts");
    expect(policy.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The git state covers both repositories a loaded file lives in.
    expect(base.provenance.git).toEqual({ commit: git("rev-parse", "HEAD").trim(), dirty: false, repositories: cleanRepositories() });

    const shown = await cli(["describe", base.dir]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`${policy.sha256.slice(0, 12)}  app/policy.ts`);
    expect(shown.stdout).toContain("  ../shared/sign-off.ts");
    expect(shown.stdout).toMatch(/git \.: commit [0-9a-f]{40}, clean/);
    expect(shown.stdout).toContain(`git ../shared: commit ${gitIn(shared, "rev-parse", "HEAD").trim()}, clean`);
    expect(shown.stdout).toMatch(/target [0-9a-f]{64} \(1 trial\(s\)\)\n  instructions [0-9a-f]{12} · tools [0-9a-f]{12} · model/);
    const json = JSON.parse((await cli(["describe", base.dir, "--json"])).stdout);
    expect(json.package.files).toEqual(meta.package.files);

    // Each assessment names where its verifier came from: crashlab's own, or the package file (with its hash).
    const row = JSON.parse(readFileSync(join(base.dir, "results.json"), "utf8")).trials[0];
    const bySource = Object.fromEntries(row.assessments.map((a: { verifier: string; source: unknown }) => [a.verifier, a.source]));
    const verifierFile = meta.package.files.find((f: { path: string }) => f.path === "crashlab/verifiers/one-booking-per-call.ts");
    expect(bySource.one_booking_per_call).toEqual({ origin: "package", file: "crashlab/verifiers/one-booking-per-call.ts", sha256: verifierFile.sha256 });
    expect(bySource.outcome).toEqual({ origin: "crashlab", file: null, sha256: null });
    // The golden path's delegation count, with the scenario's policy beside it.
    expect(row.metrics.task.delegations).toEqual({ actual: 1, expected: 1, policy: "required" });
    const hours = await run("assistant_text", [], { example: "shop_hours" });
    expect((hours.trial as unknown as { metrics: { task: { delegations: unknown } } }).metrics.task.delegations).toEqual({ actual: 0, expected: 0, policy: "forbidden" });
  });

  it("describe refuses a damaged run.json package or trial provenance: one paragraph naming the file and field (exit 2)", async () => {
    const meta = JSON.parse(readFileSync(join(base.dir, "run.json"), "utf8"));
    const writeResults = (dir: string, edit: (trial: Record<string, any>) => void) => {
      const doc = JSON.parse(readFileSync(join(base.dir, "results.json"), "utf8"));
      edit(doc.trials[0]);
      writeFileSync(join(dir, "results.json"), JSON.stringify(doc, null, 2));
    };
    const damaged: Array<[string, (dir: string) => void, RegExp]> = [
      ["no files", (d) => writeFileSync(join(d, "run.json"), JSON.stringify({ ...meta, package: { digest: "x" } })), /run\.json, field package\.root: /],
      ["a file without its hash", (d) => writeFileSync(join(d, "run.json"), JSON.stringify({ ...meta, package: { ...meta.package, files: [{ path: "app/policy.ts" }] } })), /run\.json, field package\.files\.0\.sha256: /],
      ["no git", (d) => writeFileSync(join(d, "run.json"), JSON.stringify({ ...meta, package: { ...meta.package, git: null } })), /run\.json, field package\.git: /],
      ["reported models not a list", (d) => writeResults(d, (t) => (t.provenance.models.observed.served_by = "in-process")), /results\.json, field trials\.0\.provenance\.models\.observed\.served_by: /],
      ["no provenance", (d) => writeResults(d, (t) => delete t.provenance), /results\.json, field trials\.0\.provenance: /],
    ];
    for (const [name, damage, message] of damaged) {
      const dir = mkdtempSync(join(tmpdir(), "crashlab-provenance-damaged-"));
      cpSync(base.dir, dir, { recursive: true });
      damage(dir);
      const r = await cli(["describe", dir]);
      expect(r.code, name).toBe(2);
      expect(r.stdout, name).toBe("");
      expect(r.stderr, name).toMatch(message);
      expect(r.stderr, name).toContain("; it was written by another crashlab version or edited");
      expect(r.stderr.trim().split("\n"), name).toHaveLength(1);
    }
  });

  it("changes with a file outside the package folder, a tool description, a parameter schema, the instructions — and git says which file is dirty", async () => {
    const policy = await edited("app/policy.ts", (t) => `${t}\n// a line the adapter's import brings in\n`);
    expect(policy.provenance.parts.package).not.toBe(base.provenance.parts.package);
    expect(policy.provenance.digest).not.toBe(base.provenance.digest);
    expect(policy.provenance.parts.target).toBe(base.provenance.parts.target);
    expect(policy.provenance.git).toMatchObject({ dirty: true, repositories: [{ root: "../shared", dirty: false, changed: [] }, { root: ".", dirty: true, changed: ["app/policy.ts"] }] });

    const description = await edited("app/assistant.ts", (t) => t.replace("(shop desk)", "(front desk)"));
    const schema = await edited("app/assistant.ts", (t) => t.replace("The booking request's fields", "The fields of a booking request"));
    const instructions = await edited("app/assistant.ts", (t) => t.replace("For bookings and days", "For bookings or days"));
    for (const [name, ran, part] of [["description", description, "tools"], ["schema", schema, "tools"], ["instructions", instructions, "instructions"]] as const) {
      expect(ran.provenance.digest, name).not.toBe(base.provenance.digest);
      expect(ran.provenance.parts.target, name).not.toBe(base.provenance.parts.target);
      expect(changedParts(base, ran), name).toEqual([part]);
    }
    expect(description.provenance.target_parts.tools).not.toBe(schema.provenance.target_parts.tools);

    // compare names what changed: the package file and the target part.
    const c = JSON.parse((await cli(["compare", base.dir, description.dir, "--json"])).stdout);
    expect(c.provenance.identical).toBe(false);
    expect(c.provenance.differs).toEqual(["package files", "tools"]);
    expect(c.provenance.package_files).toEqual({ changed: ["app/assistant.ts"], added: [], removed: [] });
    const text = (await cli(["compare", base.dir, instructions.dir])).stdout;
    expect(text).toContain("targets differ: package files (app/assistant.ts changed), instructions");
  });

  it("changes with a file of another repository the package imports, and that repository's git state says so", async () => {
    const library = await edited("../shared/sign-off.ts", (t) => `${t}// reviewed by the platform team\n`);
    expect(library.provenance.parts.package).not.toBe(base.provenance.parts.package);
    expect(library.provenance.digest).not.toBe(base.provenance.digest);
    // A comment: what the target sends is unchanged.
    expect(library.provenance.parts.target).toBe(base.provenance.parts.target);
    expect(library.provenance.git).toEqual({
      commit: git("rev-parse", "HEAD").trim(),
      dirty: true,
      repositories: [
        { root: "../shared", commit: gitIn(shared, "rev-parse", "HEAD").trim(), dirty: true, changed: ["../shared/sign-off.ts"] },
        { root: ".", commit: git("rev-parse", "HEAD").trim(), dirty: false, changed: [] },
      ],
    });
    const c = JSON.parse((await cli(["compare", base.dir, library.dir, "--json"])).stdout);
    expect(c.provenance).toMatchObject({ identical: false, differs: ["package files"], package_files: { changed: ["../shared/sign-off.ts"], added: [], removed: [] } });
    expect((await cli(["describe", library.dir])).stdout).toContain("git ../shared: commit");
    expect((await cli(["describe", library.dir])).stdout).toContain("dirty (../shared/sign-off.ts)");

    // Committed in its own repository: clean again, at the new commit, and the digest stays the edited one's.
    const sign = join(shared, "sign-off.ts");
    const before = readFileSync(sign, "utf8");
    writeFileSync(sign, `${before}// reviewed by the platform team\n`);
    gitIn(shared, "commit", "-qam", "reviewed");
    try {
      const committed = await run("assistant_text");
      expect(committed.provenance.parts.package).toBe(library.provenance.parts.package);
      expect(committed.provenance.git).toEqual({ commit: git("rev-parse", "HEAD").trim(), dirty: false, repositories: cleanRepositories() });
      expect(committed.provenance.git.repositories[0]!.commit).not.toBe(library.provenance.git.repositories[0]!.commit);
    } finally {
      writeFileSync(sign, before);
      gitIn(shared, "commit", "-qam", "back");
    }
  });

  it("changes with the lockfile and with the version a dependency resolved to under node_modules", async () => {
    const installed = join(repo, "node_modules", "zod");
    const lock = join(repo, "pnpm-lock.yaml");
    mkdirSync(installed, { recursive: true });
    try {
      writeFileSync(join(installed, "package.json"), JSON.stringify({ name: "zod", version: "4.0.0" }));
      const v400 = await run("assistant_text");
      writeFileSync(join(installed, "package.json"), JSON.stringify({ name: "zod", version: "4.0.1" }));
      const v401 = await run("assistant_text");
      writeFileSync(lock, "lockfileVersion: '9.0'\n");
      const locked = await run("assistant_text");
      const meta = (ran: Ran) => JSON.parse(readFileSync(join(ran.dir, "run.json"), "utf8")).package;
      expect(meta(base).dependencies.zod).toBeNull();
      expect(meta(v400).dependencies.zod).toBe("4.0.0");
      expect(meta(v401).dependencies.zod).toBe("4.0.1");
      expect(meta(base).lockfile).toBeNull();
      expect(meta(locked).lockfile).toEqual({ path: "pnpm-lock.yaml", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      const digests = [base, v400, v401, locked].map((r) => r.provenance.parts.package);
      expect(new Set(digests).size).toBe(4);
      // Only the package part: the files that ran are the same.
      for (const ran of [v400, v401, locked]) expect(ran.provenance.parts.target).toBe(base.provenance.parts.target);
      expect(meta(locked).files).toEqual(meta(base).files);
      // The lockfile is not committed: the package's repository says so.
      expect(locked.provenance.git).toMatchObject({ dirty: true, repositories: [{ root: "../shared", dirty: false }, { root: ".", dirty: true, changed: ["pnpm-lock.yaml"] }] });
    } finally {
      rmSync(join(repo, "node_modules"), { recursive: true, force: true });
      rmSync(lock, { force: true });
    }
  });

  it("does not change with whitespace in a file outside the module graph (outside or inside the package folder, or in the other repository)", async () => {
    const unused = await edited("app/unused.ts", (t) => `${t}\n\n   \n`);
    const readme = await edited("crashlab/README.md", (t) => `${t}\n \n`);
    const library = await edited("../shared/unused.ts", (t) => `${t}\n\t\n`);
    for (const ran of [unused, readme, library]) {
      expect(ran.provenance.digest).toBe(base.provenance.digest);
      expect(ran.provenance.parts).toEqual(base.provenance.parts);
      expect(ran.provenance.target_parts).toEqual(base.provenance.target_parts);
    }
    // The repositories are dirty, but not in a file that ran: the package folder's own files count, others do not.
    expect(unused.provenance.git.dirty).toBe(false);
    expect(library.provenance.git).toMatchObject({ dirty: false, repositories: [{ root: "../shared", dirty: false, changed: [] }, { root: ".", dirty: false }] });
    expect(readme.provenance.git).toMatchObject({ dirty: true, repositories: [{ root: "../shared", changed: [] }, { root: ".", changed: ["crashlab/README.md"] }] });
    const same = await cli(["compare", base.dir, unused.dir]);
    expect(same.stdout).toContain("targets: identical (same package files and target digest in both runs)");
  });
});

describe("the target digest by part: models, voice, delegation, faults, variant", () => {
  it("each changes its own part, and compare names it", async () => {
    const voice = await run("assistant");
    // The local simulator serves gpt-live-1 only: asked for another, it refuses the session — and the record
    // still says what was asked for.
    const model = await run("assistant", ["--model", "gpt-live-2"], { failing: true });
    expect(model.trial).toMatchObject({ status: "infrastructure_error", error: { message: expect.stringContaining("gpt-live-2") } });
    const backend = await run("assistant", ["--backend-model", "gpt-5.1"]);
    expect(changedParts(voice, model)).toEqual(["model"]);
    expect(changedParts(voice, backend)).toEqual(["model"]);
    expect(model.provenance.target_parts.model).not.toBe(backend.provenance.target_parts.model);
    expect(model.provenance.parts.package).toBe(voice.provenance.parts.package);
    expect(model.provenance.models.requested).toMatchObject({ model: "gpt-live-2" });
    expect(JSON.parse((await cli(["compare", voice.dir, model.dir, "--json"])).stdout).provenance).toMatchObject({ identical: false, differs: ["model"] });
    expect((await cli(["compare", voice.dir, backend.dir])).stdout).toContain("targets differ: model\n");

    // The simulator's fault plan: a fault, another fault, each another digest.
    const unknown = await run("assistant_unknown_event");
    const binary = await run("assistant_binary_frame");
    expect(changedParts(voice, unknown)).toEqual(["settings"]);
    expect(changedParts(unknown, binary)).toEqual(["settings"]);
    const descriptor = (dir: string) => JSON.parse(readFileSync(join(dir, "results.json"), "utf8")).run.target_descriptor;
    expect(descriptor(unknown.dir).settings.simulator_faults).toEqual([{ kind: "unknown_event", atInputMs: 400 }]);
    expect(JSON.parse((await cli(["compare", unknown.dir, binary.dir, "--json"])).stdout).provenance.differs).toEqual(["settings"]);

    // At the text level: the voice, the delegation mode and a variant, each in its own part.
    const text = await run("assistant_text");
    for (const [target, part] of [["assistant_text_cedar", "voice"], ["assistant_text_client", "delegation"], ["assistant_text_variant", "settings"]] as const) {
      const ran = await run(target);
      expect(changedParts(text, ran), target).toEqual([part]);
      expect(ran.provenance.parts.target, target).not.toBe(text.provenance.parts.target);
      expect(ran.provenance.digest, target).not.toBe(text.provenance.digest);
      expect(JSON.parse((await cli(["compare", text.dir, ran.dir, "--json"])).stdout).provenance.differs, target).toEqual([part]);
    }

    // Backend usage is grouped by model even when one model answered: here the simulator's managed backend.
    const usage = voice.trial.metrics.consumption.backend!;
    expect(voice.provenance.models.observed.backend_model).toHaveLength(1);
    const served = voice.provenance.models.observed.backend_model[0]!;
    expect(Object.keys(usage.per_model)).toEqual([served]);
    expect(usage.per_model[served]!.total).toBe(usage.total);
    expect(usage.total).toBeGreaterThan(0);
  });
});

describe("the endpoint, never its key", () => {
  const KEY_ONE = "sk-provenance-key-ONE-1111";
  const KEY_TWO = "sk-provenance-key-TWO-2222";
  const closers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const c of closers) await c.close();
  });

  /** A loopback GPT-Live server (the simulator as a stand-in for a gateway), told the caller's words. */
  async function liveServer() {
    const server = await startLiveSimulator({ policy: shopPolicy(), synthesizer: toneSynthesizer({ msPerChar: 4 }) });
    closers.push(server);
    const words = "When are you open on Saturday?";
    const speech = await new EspeakSynthesizer({ voice: DEFAULT_CALLER_VOICE }).synthesize(words);
    server.registerCallerAudio(pcm16ToBytes(speech.samples), words);
    return server;
  }

  it("another endpoint changes the endpoint part; another key for the same endpoint changes nothing and is written nowhere", async () => {
    const a = await liveServer();
    const b = await liveServer();
    const at = (url: string, key: string) => run("assistant", ["--endpoint", url, "--endpoint-api-key-env", "SHOP_LIVE_KEY"], { example: "shop_hours", env: { SHOP_LIVE_KEY: key } });
    const one = await at(a.url, KEY_ONE);
    const two = await at(a.url, KEY_TWO);
    const other = await at(b.url, KEY_ONE);
    expect(one.trial.status).toBe("passed");
    expect(one.provenance.models).toMatchObject({ requested: { endpoint: a.url }, observed: { served_by: [new URL(a.url).host] }, mismatches: [] });
    // The key is not the target: the same digest, to the part.
    expect(two.provenance.target_parts).toEqual(one.provenance.target_parts);
    expect(two.provenance.parts.target).toBe(one.provenance.parts.target);
    expect(changedParts(one, other)).toEqual(["endpoint"]);
    const c = JSON.parse((await cli(["compare", one.dir, other.dir, "--json"])).stdout);
    expect(c.provenance.differs).toEqual(["endpoint"]);
    // No key in any file of the run folders, nor in what describe prints.
    for (const ran of [one, two, other]) {
      const described = (await cli(["describe", ran.dir])).stdout + (await cli(["describe", ran.dir, "--json"])).stdout;
      const files = ["results.json", "run.json", "report.html"].map((f) => readFileSync(join(ran.dir, f), "utf8"));
      for (const text of [described, ran.stdout, ...files]) {
        expect(text).not.toContain(KEY_ONE);
        expect(text).not.toContain(KEY_TWO);
      }
      // What is recorded instead: which variable held the key.
      expect(JSON.parse(files[0]!).run.target_descriptor.settings.credentials).toEqual({ live: "env:SHOP_LIVE_KEY", responses: "none" });
    }
  });
});

describe("observed models", () => {
  it("records the model the service reported; compare and the report flag a simulator reporting another", async () => {
    const asked = await run("assistant");
    const other = await run("assistant_other_model");
    const record = JSON.parse(readFileSync(join(other.dir, "results.json"), "utf8")).trials[0];
    expect(record.provenance.models).toEqual({
      requested: { model: "gpt-live-1", backend_model: expect.any(String), endpoint: "local-simulator" },
      observed: { model: ["gpt-live-mini"], backend_model: expect.any(Array), served_by: ["local-simulator"] },
      mismatches: ["model: asked for gpt-live-1, the service reported gpt-live-mini"],
    });
    expect(asked.provenance.models.mismatches).toEqual([]);
    expect(asked.provenance.models.observed.model).toEqual(["gpt-live-1"]);
    // The reported model came over the wire, in session.started.
    const events = execFileSync("gzip", ["-dc", join(other.dir, "events", "shop_book_service.r1.jsonl.gz")]).toString();
    expect(events).toMatch(/"type":"session\.started".*"model":"gpt-live-mini"/);

    const c = await cli(["compare", asked.dir, other.dir]);
    expect(c.stdout).toContain("⚠ head: in 1 trial(s) the service reported another model than asked for — model: asked for gpt-live-1, the service reported gpt-live-mini");
    expect(c.stdout).toContain("⚠ models differ between the runs: the voice model the service reported: base gpt-live-1, head gpt-live-mini");
    // The report's overview, as the page renders it from the data it embeds: a warning section naming the trial.
    const overview = (dir: string) => overviewHtml(reportData(readFileSync(join(dir, "report.html"), "utf8")));
    const flagged = overview(other.dir);
    expect(flagged).toContain('id="model-mismatch"');
    expect(flagged).toMatch(/OTHER MODEL<\/div><div><div>The service reported serving another model than the one asked for in 1 of 1 trial\(s\)/);
    expect(flagged).toContain("<li>model: asked for gpt-live-1, the service reported gpt-live-mini</li>");
    expect(flagged).toContain("shop_book_service#1");
    expect(overview(asked.dir)).not.toContain('id="model-mismatch"');
  });
});

/** The run data a report.html embeds (what its overview is rendered from). */
function reportData(html: string): ReportData {
  const m = /<script type="application\/json" id="run-data">([^]*?)<\/script>/.exec(html);
  if (!m) throw new Error("report.html embeds no run data");
  return JSON.parse(m[1]!) as ReportData;
}
