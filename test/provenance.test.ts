/**
 * What ran, through the real CLI, on a package whose adapter imports files outside its folder (made here,
 * in a temporary git repository, from `crashlab init`): each thing the target runs or sends — an imported
 * file outside the package folder, a tool's description, a tool's parameter schema, the instructions —
 * changes the digest when edited, one at a time; a whitespace edit of a file nothing imports does not.
 * The git state covers those files; run.json lists them; `crashlab describe` shows them; `compare` names
 * the part that changed, says when nothing did, and flags a model the local simulator reports instead of
 * the one asked for, as the report does.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, runFolder } from "./cli-harness";

let repo: string;
const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: repo, stdio: ["ignore", "pipe", "pipe"] }).toString();

const TARGETS = `import { gptLiveTarget, policyTarget, type TargetEntry } from "crashlab/alpha";
import { shopPolicy } from "../../app/policy";
import { INSTRUCTIONS, BACKEND_INSTRUCTIONS, TOOLS } from "../../app/assistant";

export function shopTargets(): Record<string, TargetEntry> {
  return {
    assistant: (settings) => gptLiveTarget({ settings, instructions: INSTRUCTIONS, backend_instructions: BACKEND_INSTRUCTIONS, tools: TOOLS, offline: { policy: shopPolicy() } }),
    // The same assistant, with the local simulator reporting another voice model than the one asked for.
    assistant_other_model: (settings) =>
      gptLiveTarget({ settings, instructions: INSTRUCTIONS, backend_instructions: BACKEND_INSTRUCTIONS, tools: TOOLS, offline: { policy: shopPolicy(), reported_models: { model: "gpt-live-mini" } } }),
    assistant_text: () => policyTarget({ policy: shopPolicy(), instructions: INSTRUCTIONS, tools: TOOLS }),
  };
}
`;

const ASSISTANT = `import { toolDeclarations } from "crashlab/alpha";
import { shopWorld } from "../crashlab/worlds/shop";

export const INSTRUCTIONS = "You answer the phone for the bike shop. For bookings and days, delegate to the backend.";
export const BACKEND_INSTRUCTIONS = "Use check_day for a day and book_service once to book.";
export const TOOLS = toolDeclarations(shopWorld).map((t) => ({
  ...t,
  description: \`\${t.description} (shop desk)\`,
  parameters: { ...t.parameters, description: "The booking request's fields" },
}));
`;

beforeAll(async () => {
  repo = mkdtempSync(join(tmpdir(), "crashlab-provenance-"));
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

afterAll(() => rmSync(repo, { recursive: true, force: true }));

interface Ran {
  dir: string;
  provenance: { digest: string; parts: Record<string, string>; target_parts: Record<string, string>; git: { commit: string; dirty: boolean; repositories: Array<{ root: string; dirty: boolean; changed: string[] }> }; models: { mismatches: string[] } };
}

async function run(target: string, extra: string[] = []): Promise<Ran> {
  const out = mkdtempSync(join(tmpdir(), "crashlab-provenance-run-"));
  const r = await cli(["run", "--package", join(repo, "crashlab"), "--target", target, "--example", "shop_book_service", "--results-dir", out, "--quiet", ...extra]);
  expect(r.stderr).toBe("");
  const dir = runFolder(out);
  const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
  return { dir, provenance: results.trials[0].provenance };
}

/** Edit a file, run, put the file back. */
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

describe("the digest of what ran", () => {
  let base: Ran;
  beforeAll(async () => {
    base = await run("assistant_text");
  });

  it("lists every module the package loaded, inside and outside its folder, in run.json and describe", async () => {
    const meta = JSON.parse(readFileSync(join(base.dir, "run.json"), "utf8"));
    const paths = meta.package.files.map((f: { path: string }) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["app/assistant.ts", "app/facts.ts", "app/policy.ts", "crashlab/adapters/targets.ts", "crashlab/evaluations.ts", "crashlab/worlds/shop.ts"]));
    expect(paths).not.toContain("app/unused.ts");
    expect(paths.some((p: string) => p.includes("data/"))).toBe(false);
    expect(meta.package.package_dir).toBe("crashlab");
    expect(meta.package.digest).toBe(base.provenance.parts.package);
    const policy = meta.package.files.find((f: { path: string }) => f.path === "app/policy.ts");
    expect(policy.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(base.provenance.git).toMatchObject({ commit: git("rev-parse", "HEAD").trim(), dirty: false, repositories: [{ root: ".", dirty: false, changed: [] }] });

    const shown = await cli(["describe", base.dir]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`${policy.sha256.slice(0, 12)}  app/policy.ts`);
    expect(shown.stdout).toMatch(/git \.: commit [0-9a-f]{40}, clean/);
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
  });

  it("changes with a file outside the package folder, a tool description, a parameter schema, the instructions — and git says which file is dirty", async () => {
    const policy = await edited("app/policy.ts", (t) => `${t}\n// a line the adapter's import brings in\n`);
    expect(policy.provenance.parts.package).not.toBe(base.provenance.parts.package);
    expect(policy.provenance.digest).not.toBe(base.provenance.digest);
    expect(policy.provenance.parts.target).toBe(base.provenance.parts.target);
    expect(policy.provenance.git).toMatchObject({ dirty: true, repositories: [{ root: ".", dirty: true, changed: ["app/policy.ts"] }] });

    const description = await edited("app/assistant.ts", (t) => t.replace("(shop desk)", "(front desk)"));
    const schema = await edited("app/assistant.ts", (t) => t.replace("The booking request's fields", "The fields of a booking request"));
    const instructions = await edited("app/assistant.ts", (t) => t.replace("For bookings and days", "For bookings or days"));
    for (const [name, ran, part] of [["description", description, "tools"], ["schema", schema, "tools"], ["instructions", instructions, "instructions"]] as const) {
      expect(ran.provenance.digest, name).not.toBe(base.provenance.digest);
      expect(ran.provenance.parts.target, name).not.toBe(base.provenance.parts.target);
      const changed = Object.keys(base.provenance.target_parts).filter((k) => base.provenance.target_parts[k] !== ran.provenance.target_parts[k]);
      expect(changed, name).toEqual([part]);
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

  it("does not change with whitespace in a file outside the module graph (outside or inside the package folder)", async () => {
    const unused = await edited("app/unused.ts", (t) => `${t}\n\n   \n`);
    const readme = await edited("crashlab/README.md", (t) => `${t}\n \n`);
    for (const ran of [unused, readme]) {
      expect(ran.provenance.digest).toBe(base.provenance.digest);
      expect(ran.provenance.parts).toEqual(base.provenance.parts);
    }
    // The repository is dirty, but not in a file that ran: the package folder's own files count, others do not.
    expect(unused.provenance.git.dirty).toBe(false);
    expect(readme.provenance.git).toMatchObject({ dirty: true, repositories: [{ changed: ["crashlab/README.md"] }] });
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
    // The reported model came over the wire, in session.started.
    const events = execFileSync("gzip", ["-dc", join(other.dir, "events", "shop_book_service.r1.jsonl.gz")]).toString();
    expect(events).toMatch(/"type":"session\.started".*"model":"gpt-live-mini"/);

    const c = await cli(["compare", asked.dir, other.dir]);
    expect(c.stdout).toContain("⚠ head: in 1 trial(s) the service reported another model than asked for — model: asked for gpt-live-1, the service reported gpt-live-mini");
    expect(c.stdout).toContain("⚠ models differ between the runs: the voice model the service reported: base gpt-live-1, head gpt-live-mini");
    const report = readFileSync(join(other.dir, "report.html"), "utf8");
    expect(report).toContain("model: asked for gpt-live-1, the service reported gpt-live-mini");
    expect(readFileSync(join(asked.dir, "report.html"), "utf8")).not.toContain("the service reported gpt-live-mini");
  });
});
