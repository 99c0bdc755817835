/**
 * The run folder's file primitives (src/core/run-folder/): what they refuse and what they let through, on
 * real links, FIFOs and folders. The commands built on them are held to the same rules end to end by the
 * hostile cases of the damaged-run-folder corpus (test/bad-folders.test.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendRunLine, checkArtifacts, listRunFiles, openRunFile, openRunFileForAppend, pathProblem, readRunFile, RunFolderError, statRunFile, writeRunFile } from "../src/core/run-folder/files";
import { escapeControls, shown, shownValue } from "../src/core/run-folder/text";

/** A run folder `run/` and a folder `outside/` beside it holding `secret.txt`. */
function folders() {
  const root = mkdtempSync(join(tmpdir(), "run-folder-"));
  const run = join(root, "run");
  const outside = join(root, "outside");
  mkdirSync(join(run, "audio", "t.r1"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), "outside\n");
  writeFileSync(join(run, "results.json"), "{}");
  return { root, run, outside, secret: join(outside, "secret.txt") };
}

const LIMIT = { bytes: 1 << 20, what: "a test file may hold" };
const mkfifo = (path: string) => expect(spawnSync("mkfifo", [path]).status).toBe(0);
const refused = (f: () => unknown, pattern: RegExp) => {
  let error: unknown;
  try {
    f();
  } catch (e) {
    error = e;
  }
  expect(error, "refused").toBeInstanceOf(RunFolderError);
  expect((error as Error).message).toMatch(pattern);
};

describe("paths taken from a run folder", () => {
  it("are plain relative paths: no '..', absolute path, empty or '.' segment, backslash, colon or control character", () => {
    for (const ok of ["results.json", "audio/t.r1/conversation.wav", "events/a.r1.jsonl.gz", "..a", "a..b/c"]) expect(pathProblem(ok), ok).toBeNull();
    expect(pathProblem("../x")).toBe("has a '..' segment");
    expect(pathProblem("a/../../x")).toBe("has a '..' segment");
    expect(pathProblem("/etc/passwd")).toBe("is absolute");
    expect(pathProblem("C:\\x")).toBe("is absolute");
    expect(pathProblem("")).toBe("is empty");
    for (const bad of ["a//b", "./a", "a/.", "a\\b", "ab:c", "a\u0000b", "a/"]) expect(pathProblem(bad), JSON.stringify(bad)).toMatch(/not a plain relative path/);
  });

  it("a link inside the folder to a file inside is read like the file; one out of it, to nothing or to itself is refused, naming it", () => {
    const { run, secret } = folders();
    writeFileSync(join(run, "real.json"), '{"x":1}');
    symlinkSync("real.json", join(run, "alias.json"));
    expect(readRunFile(run, "alias.json", LIMIT)!.toString()).toBe('{"x":1}');
    symlinkSync(secret, join(run, "out.json"));
    refused(() => readRunFile(run, "out.json", LIMIT), new RegExp(`^${join(run, "out.json")} leads out of the run folder \\(a symbolic link to ${secret}\\)`));
    symlinkSync(join(run, "gone"), join(run, "dangling.json"));
    refused(() => openRunFile(run, "dangling.json"), /dangling\.json is a symbolic link to nothing/);
    symlinkSync("self.json", join(run, "self.json"));
    refused(() => openRunFile(run, "self.json"), /self\.json is a symbolic link loop/);
    // A folder on the way that leads out: the whole path is outside.
    symlinkSync(join(secret, ".."), join(run, "audio", "t.r2"));
    refused(() => statRunFile(run, "audio/t.r2/secret.txt"), /audio\/t\.r2\/secret\.txt leads out of the run folder/);
    refused(() => openRunFile(run, "../outside/secret.txt"), /has a '\.\.' segment/);
    refused(() => openRunFile(run, secret), /is absolute/);
    expect(openRunFile(run, "missing.json")).toBeNull();
  });

  it("a FIFO, a folder or a device where a file belongs is refused at once (a FIFO never blocks the read)", () => {
    const { run } = folders();
    mkfifo(join(run, "pipe.json"));
    refused(() => readRunFile(run, "pipe.json", LIMIT), /pipe\.json is a named pipe \(FIFO\), not a file/);
    refused(() => openRunFile(run, "audio"), /audio is a folder, not a file/);
    symlinkSync("/dev/zero", join(run, "zero"));
    refused(() => openRunFile(run, "zero"), /leads out of the run folder/);
  });

  it("a file over its limit is refused with its size, before it is read", () => {
    const { run } = folders();
    writeFileSync(join(run, "big.jsonl"), Buffer.alloc(3 << 20));
    refused(() => readRunFile(run, "big.jsonl", { bytes: 1 << 20, what: "a reviews file may hold" }), /big\.jsonl is 3\.0 MB, more than the 1\.0 MB a reviews file may hold/);
  });

  it("checkArtifacts refuses a run whose artifacts lead out, and lets a missing one pass (the report names it)", () => {
    const { run, secret } = folders();
    checkArtifacts(run, [{ artifacts: { transcript: "transcripts/t.r1.json" } }]);
    symlinkSync(secret, join(run, "audio", "t.r1", "conversation.wav"));
    refused(() => checkArtifacts(run, [{ artifacts: { conversation_wav: "audio/t.r1/conversation.wav" } }]), /conversation\.wav leads out/);
  });

  it("listRunFiles lists regular files and links to files inside, and refuses links to folders, out of the folder, and FIFOs", () => {
    const { run, secret } = folders();
    mkdirSync(join(run, "events"));
    writeFileSync(join(run, "events", "a.gz"), "a");
    symlinkSync("a.gz", join(run, "events", "b.gz"));
    expect(listRunFiles(run, "events").map((f) => f.rel)).toEqual(["events/a.gz", "events/b.gz"]);
    expect(listRunFiles(run, "transcripts")).toEqual([]);
    symlinkSync("..", join(run, "events", "up"));
    refused(() => listRunFiles(run, "events"), /events\/up is a symbolic link to a folder/);
    const { run: other } = folders();
    mkdirSync(join(other, "events"));
    symlinkSync(secret, join(other, "events", "out.gz"));
    refused(() => listRunFiles(other, "events"), /events\/out\.gz leads out of the run folder/);
    const { run: third } = folders();
    mkdirSync(join(third, "events"));
    mkfifo(join(third, "events", "pipe.gz"));
    refused(() => listRunFiles(third, "events"), /events\/pipe\.gz is a named pipe \(FIFO\), not a file/);
  });
});

describe("writes into a run folder never go through a link", () => {
  it("appending refuses a link in the file's place — out, to nothing (whose target is never made), to itself — and a FIFO", () => {
    const { run, outside, secret } = folders();
    symlinkSync(secret, join(run, "reviews.jsonl"));
    refused(() => appendRunLine(run, "reviews.jsonl", "{}"), /reviews\.jsonl is a symbolic link: nothing was written through it/);
    expect(readFileSync(secret, "utf8")).toBe("outside\n");
    const { run: run2 } = folders();
    symlinkSync(join(outside, "made.jsonl"), join(run2, "reviews.jsonl"));
    refused(() => appendRunLine(run2, "reviews.jsonl", "{}"), /is a symbolic link/);
    expect(existsSync(join(outside, "made.jsonl"))).toBe(false);
    const { run: run3 } = folders();
    symlinkSync("reviews.jsonl", join(run3, "reviews.jsonl"));
    refused(() => openRunFileForAppend(run3, "reviews.jsonl"), /is a symbolic link/);
    const { run: run4 } = folders();
    mkfifo(join(run4, "reviews.jsonl"));
    refused(() => appendRunLine(run4, "reviews.jsonl", "{}"), /is a named pipe \(FIFO\), not a file/);
  });

  it("appends whole lines (0600), with the newline a hand-edited last line lacked", () => {
    const { run } = folders();
    appendRunLine(run, "reviews.jsonl", '{"a":1}');
    writeFileSync(join(run, "reviews.jsonl"), '{"a":1}\n{"b":2}', { flag: "w" });
    appendRunLine(run, "reviews.jsonl", '{"c":3}');
    expect(readFileSync(join(run, "reviews.jsonl"), "utf8")).toBe('{"a":1}\n{"b":2}\n{"c":3}\n');
    expect(statSync(join(run, "reviews.jsonl")).mode & 0o777).toBe(0o600);
  });

  it("a whole-file write refuses a folder on the way that is a link, and a link at the file's name; a link planted at its temporary name is never written through", () => {
    const { run, outside, secret } = folders();
    symlinkSync(outside, join(run, "audio", "t.r2"));
    refused(() => writeRunFile(run, "audio/t.r2/input.wav", "x"), /audio\/t\.r2 is a symbolic link: nothing was written through it/);
    expect(existsSync(join(outside, "input.wav"))).toBe(false);
    symlinkSync(secret, join(run, "report.html"));
    refused(() => writeRunFile(run, "report.html", "x"), /report\.html is a symbolic link/);
    expect(readFileSync(secret, "utf8")).toBe("outside\n");
    // The temporary file is opened exclusively without following links: one planted there is removed, not followed.
    symlinkSync(secret, join(run, `junit.xml.tmp-${process.pid}`));
    writeRunFile(run, "junit.xml", "<x/>");
    expect(readFileSync(secret, "utf8")).toBe("outside\n");
    expect(readFileSync(join(run, "junit.xml"), "utf8")).toBe("<x/>");
    expect(lstatSync(join(run, "junit.xml")).isFile()).toBe(true);
    // Missing folders are made (0700), inside the run folder.
    writeRunFile(run, "events/new/a.gz", "a");
    expect(statSync(join(run, "events", "new")).mode & 0o777).toBe(0o700);
  });
});

describe("user data in messages", () => {
  it("control characters are escaped and long text is cut, with what was left out counted", () => {
    expect(escapeControls("a\u0000b\u001b[31mc\u202ed\n")).toBe("a\\u0000b\\u001b[31mc\\u202ed\\u000a");
    expect(shown("x".repeat(130), 120)).toBe(`${"x".repeat(120)}… (10 more characters)`);
    expect(shownValue("a\u0000")).toBe('"a\\u0000"');
    expect(shownValue({ k: "\u001b" })).toBe('{"k":"\\u001b"}');
    expect(shownValue(undefined)).toBe("nothing");
    expect(shownValue("y".repeat(100), 10)).toBe(`"yyyyyyyyy… (92 more characters)`);
  });
});
