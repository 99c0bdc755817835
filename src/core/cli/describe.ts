/**
 * `crashlab describe <run-dir>`: what ran in a run, from its folder alone — every file of the package
 * with its hash (run.json), the lockfile and dependency versions, the git state of each repository, the
 * target's digest by part, and the models asked for beside the ones the service reported (results.json).
 */
import { join, resolve } from "node:path";
import { z } from "zod";
import { machineFault } from "../files/machine-fault";
import { Provenance } from "../record/trial-record";
import { openRunFile, RunFolderError, type RunFile } from "../run-folder/files";
import { shown } from "../run-folder/text";
import { readRunMeta } from "../journal/run-meta";
import type { PackageIdentity } from "../provenance/package-files";
import { scanResultsFile } from "../report/results-reader";
import { parseFlags } from "./flags";
import { UsageError } from "./usage-error";
import type { ViewIO } from "./view";

export const DESCRIBE_HELP = `crashlab describe — what ran in a run

Usage: crashlab describe <run-dir> [--json]

Prints, from the run folder alone: the package digest and every file it covers (each module the package
loaded, inside or outside its folder, as a path relative to the repository root with its sha256), the
lockfile and the dependency versions; the git commit and dirty state of every repository holding one of
those files, with the files that differ from it; the target's digest and its parts (instructions, tools,
model, voice, delegation, endpoint, settings); the models asked for and the ones the service reported.
See docs/results.md ("Provenance").

  --json       print it as JSON
  -h, --help   this help

Exit codes: 0 printed; 2 usage error, or a run folder without its run.json or results.json, or one whose
package list or trial provenance is damaged (named by file and field).`;

const PackageFile = z.strictObject({ path: z.string(), sha256: z.string() });

/** run.json's `package`, as the run wrote it (PackageIdentity): read as input, checked before it is shown. */
const PackageIdentitySchema = z.strictObject({
  digest: z.string(),
  root: z.string(),
  package_dir: z.string(),
  files: z.array(PackageFile),
  lockfile: PackageFile.nullable(),
  dependencies: z.record(z.string(), z.string().nullable()),
  git: z.strictObject({
    commit: z.string().nullable(),
    dirty: z.boolean().nullable(),
    repositories: z.array(z.strictObject({ root: z.string(), commit: z.string().nullable(), dirty: z.boolean().nullable(), changed: z.array(z.string()) })).optional(),
  }),
});

/** The first problem of a parse, as "field <path>: <message>". */
const fieldIssue = (prefix: string, error: z.ZodError) => {
  const issue = error.issues[0]!;
  return `field ${shown([prefix, ...issue.path.map(String)].filter(Boolean).join("."))}: ${shown(issue.message, 300)}`;
};

interface TargetSeen {
  digest: string;
  parts: Record<string, string> | null;
  trials: number;
}

/** The trials' target digests and reported models, read a trial at a time. */
function trialProvenance(opened: RunFile): { run: Record<string, unknown>; targets: TargetSeen[]; models: Record<string, unknown> | null; mismatches: Map<string, number> } {
  const targets = new Map<string, TargetSeen>();
  const mismatches = new Map<string, number>();
  let models: Record<string, unknown> | null = null;
  const file = opened.path;
  const scan = scanResultsFile(opened);
  let step = scan.next();
  try {
    for (let i = 0; !step.done; step = scan.next(), i++) {
      const parsed = Provenance.safeParse((JSON.parse(step.value) as { provenance?: unknown } | null)?.provenance);
      if (!parsed.success) throw new UsageError(`${file}, ${fieldIssue(`trials.${i}.provenance`, parsed.error)}; it was written by another crashlab version or edited`);
      const p = parsed.data;
      const digest = p.parts.target;
      const seen = targets.get(digest) ?? targets.set(digest, { digest, parts: p?.target_parts ?? null, trials: 0 }).get(digest)!;
      seen.trials++;
      models ??= (p.models as Record<string, unknown> | undefined) ?? null;
      for (const m of p.models?.mismatches ?? []) mismatches.set(m, (mismatches.get(m) ?? 0) + 1);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof RunFolderError || machineFault(error)) throw error;
    throw new UsageError(`${file} cannot be read (${shown((error as Error).message)}); the run folder is damaged`);
  } finally {
    scan.return(undefined as never);
  }
  const run = (step.value.header as { run?: Record<string, unknown> }).run;
  if (!run || typeof run !== "object") throw new UsageError(`${file} has no run section; it was written by another crashlab version or edited`);
  return { run, targets: [...targets.values()], models, mismatches };
}

const short = (sha: string) => sha.slice(0, 12);

function text(dir: string, pkg: PackageIdentity | undefined, digest: string | undefined, seen: ReturnType<typeof trialProvenance>): string {
  const run = seen.run as { run_id?: string; plan?: string; target?: string; seed?: number; crashlab_version?: string };
  const lines = [`run ${run.run_id} — plan ${run.plan}, target ${run.target}, seed ${run.seed}, crashlab ${run.crashlab_version}`, `folder ${dir}`];
  if (!pkg) lines.push(`package ${digest ?? "unknown"}: this run's run.json does not list the files (written by an older crashlab)`);
  else {
    lines.push(`package ${pkg.digest}`, `  root ${pkg.root} (package folder ${pkg.package_dir})`, `  ${pkg.files.length} file(s) ran:`);
    for (const f of pkg.files) lines.push(`    ${short(f.sha256)}  ${f.path}`);
    lines.push(`  lockfile ${pkg.lockfile ? `${short(pkg.lockfile.sha256)}  ${pkg.lockfile.path}` : "none found"}`);
    const deps = Object.entries(pkg.dependencies);
    lines.push(`  dependencies ${deps.length ? deps.map(([n, v]) => `${n}@${v ?? "not installed"}`).join(", ") : "none declared"}`);
    const repos = pkg.git.repositories ?? [];
    if (repos.length === 0) lines.push("git: no repository holds these files");
    for (const r of repos)
      lines.push(`git ${r.root}: commit ${r.commit ?? "unknown"}, ${r.dirty === null ? "state unknown" : r.dirty ? `dirty (${r.changed.slice(0, 8).join(", ")}${r.changed.length > 8 ? ", …" : ""})` : "clean"}`);
  }
  for (const t of seen.targets) {
    lines.push(`target ${t.digest} (${t.trials} trial(s))`);
    if (t.parts) lines.push(`  ${Object.entries(t.parts).map(([k, v]) => `${k} ${short(v)}`).join(" · ")}`);
  }
  const m = seen.models as { requested?: Record<string, string | null>; observed?: Record<string, string[]> } | null;
  if (m?.requested && m.observed)
    lines.push(
      `models asked for: model ${m.requested.model ?? "—"}, backend ${m.requested.backend_model ?? "—"}, endpoint ${m.requested.endpoint ?? "—"}`,
      `models reported (first trial): model ${m.observed.model?.join(", ") || "—"}, backend ${m.observed.backend_model?.join(", ") || "—"}, served by ${m.observed.served_by?.join(", ") || "—"}`,
    );
  for (const [mismatch, n] of seen.mismatches) lines.push(`⚠ ${n} trial(s): ${mismatch}`);
  return lines.join("\n");
}

export async function describeCommand(argv: string[], io: ViewIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, { json: { type: "boolean" }, help: { type: "boolean", short: "h" } }, 1);
  if (values.help) {
    io.stdout(DESCRIBE_HELP + "\n");
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("usage: crashlab describe <run-dir> [--json]");
  const dir = resolve(io.cwd, positionals[0]!);
  const meta = readRunMeta(dir);
  // Through the run folder's checks: a link out of the folder, a FIFO or a folder in its place is refused.
  const results = openRunFile(dir, "results.json");
  if (!results) throw new UsageError(`${dir} holds no results.json: the run has not finished writing its results (resume it with \`crashlab run --resume ${positionals[0]}\`)`);
  // run.json is input too: a `package` that is not what a run writes is named, never shown half.
  const pkg = meta.package === undefined ? undefined : PackageIdentitySchema.safeParse(meta.package);
  if (pkg && !pkg.success) throw new UsageError(`${join(dir, "run.json")}, ${fieldIssue("package", pkg.error)}; it was written by another crashlab version or edited`);
  const seen = trialProvenance(results);
  if (values.json)
    io.stdout(
      JSON.stringify(
        { run_id: meta.run_id, package_digest: meta.package_digest ?? null, package: pkg?.data ?? null, targets: seen.targets, models: seen.models, model_mismatches: Object.fromEntries(seen.mismatches) },
        null,
        2,
      ) + "\n",
    );
  else io.stdout(text(dir, pkg?.data, meta.package_digest, seen) + "\n");
  return 0;
}
