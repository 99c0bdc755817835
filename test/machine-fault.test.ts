import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { machineFault, machineFaultInMessage, machineFaultLine } from "../src/core/files/machine-fault";
import { spawnSync } from "node:child_process";
import { AtomicFileWriter, atPath, removeLeftoverTemps, writeFileAtomic } from "../src/core/files/atomic";

/** Node's SystemError as a failing call raises it. */
const systemError = (code: string, syscall: string, path?: string) =>
  Object.assign(new Error(`${code}: some text, ${syscall}${path ? ` '${path}'` : ""}`), { code, syscall, ...(path ? { path } : {}) });

describe("the machine's faults in one line", () => {
  it("classifies Node's SystemErrors by code, names the final file of a temporary one, and leaves other errors alone", () => {
    expect(machineFault(systemError("ENOSPC", "write", "/r/x.wav.tmp-4242"))).toMatchObject({ code: "ENOSPC", path: "/r/x.wav", cause: "the disk is full" });
    expect(machineFault(systemError("EROFS", "open", "/r/y.json"))).toMatchObject({ code: "EROFS", cause: "the file system is read-only" });
    expect(machineFault(systemError("EMFILE", "open", "/r/y.json"))?.cause).toBe("too many open files");
    for (const code of ["EDQUOT", "EACCES", "EPERM", "EFBIG", "ENFILE", "EIO"]) expect(machineFault(systemError(code, "write", "/a"))?.code).toBe(code);
    // Not the machine's: a missing file, a folder in the way, our own errors.
    expect(machineFault(systemError("ENOENT", "open", "/a"))).toBeNull();
    expect(machineFault(systemError("EISDIR", "open", "/a"))).toBeNull();
    expect(machineFault(new TypeError("x is undefined"))).toBeNull();
    expect(machineFault(null)).toBeNull();
  });

  it("a disk-full line for run names the file and the run folder to resume; other commands say to run again", () => {
    const results = mkdtempSync(join(tmpdir(), "fault-line-"));
    const runDir = join(results, "run-1");
    mkdirSync(join(runDir, "audio", "a.r1"), { recursive: true });
    writeFileSync(join(runDir, "run.json"), "{}");
    const wav = join(runDir, "audio", "a.r1", "conversation.wav");
    expect(machineFaultLine(machineFault(systemError("ENOSPC", "write", `${wav}.tmp-77`))!, "run")).toBe(
      `cannot write ${wav}: the disk is full; free space and resume with crashlab run --resume ${runDir}`,
    );
    expect(machineFaultLine(machineFault(systemError("EROFS", "open", wav))!, "run")).toBe(`cannot write ${wav}: the file system is read-only; make it writable and resume with crashlab run --resume ${runDir}`);
    // Before run.json exists there is nothing to resume.
    const early = join(results, "run-2", "run.json");
    expect(machineFaultLine(machineFault(systemError("ENOSPC", "write", early))!, "run")).toBe(`cannot write ${early}: the disk is full; free space and run crashlab run again`);
    // A run.json above the results folder is no run folder of this one's: it is not looked for there.
    writeFileSync(join(results, "run.json"), "{}");
    const deep = join(results, "run-3", "audio", "a.r1", "conversation.wav");
    expect(machineFaultLine(machineFault(systemError("ENOSPC", "write", deep))!, "run")).toBe(`cannot write ${deep}: the disk is full; free space and run crashlab run again`);
    expect(machineFaultLine(machineFault(systemError("ENOSPC", "write", "/out/compare.html"))!, "compare")).toBe("cannot write /out/compare.html: the disk is full; free space and run crashlab compare again");
    expect(machineFaultLine(machineFault(systemError("EACCES", "open", "/data/x.json"))!, "merge")).toBe("cannot open /data/x.json: permission denied; give this user access to it and run crashlab merge again");
  });

  it("reads a fault back from a worker thread's message in Node's form, path included", () => {
    expect(machineFaultInMessage("the worker thread could not finish it: ENOSPC: no space left on device, write '/r/a b/x.json'")).toMatchObject({ code: "ENOSPC", syscall: "write", path: "/r/a b/x.json" });
    expect(machineFaultInMessage("the worker thread running this trial stopped: out of memory")).toBeNull();
    expect(machineFaultInMessage("ENOENT: no such file or directory, open '/x'")).toBeNull();
  });

  it("atPath names the file of a descriptor-only error once, in Node's message form", () => {
    const e = atPath(systemError("ENOSPC", "write"), "/r/x.json");
    expect(e).toMatchObject({ path: "/r/x.json", message: "ENOSPC: some text, write '/r/x.json'" });
    expect(atPath(e, "/other").path).toBe("/r/x.json");
  });

  it("a failed atomic write leaves no temporary file (writeFileAtomic and AtomicFileWriter)", () => {
    const dir = mkdtempSync(join(tmpdir(), "fault-atomic-"));
    mkdirSync(join(dir, "taken"));
    expect(() => writeFileAtomic(join(dir, "taken"), "x")).toThrow(/EISDIR|EEXIST|ENOTEMPTY/);
    const w = new AtomicFileWriter(join(dir, "taken"));
    w.write("partial");
    expect(() => w.commit()).toThrow();
    w.abort();
    expect(readdirSync(dir)).toEqual(["taken"]);
    expect(existsSync(join(dir, `taken.tmp-${process.pid}`))).toBe(false);
  });
});

describe("leftover temporary files", () => {
  it("removes `<file>.tmp-<pid>` of processes that no longer exist, anywhere below the run folder, and nothing else", () => {
    const dir = mkdtempSync(join(tmpdir(), "fault-leftovers-"));
    mkdirSync(join(dir, "audio", "a.r1"), { recursive: true });
    mkdirSync(join(dir, "events"));
    // A pid that has just ended (its process was waited for).
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    expect(dead).toMatch(/^\d+$/);
    const files = {
      wav: join(dir, "audio", "a.r1", `conversation.wav.tmp-${dead}`),
      events: join(dir, "events", `a.r1.jsonl.gz.tmp-${dead}`),
      mine: join(dir, `results.json.tmp-${process.pid}`),
      kept: join(dir, "audio", "a.r1", "conversation.wav"),
      notTemp: join(dir, "notes.tmp-x1"),
    };
    for (const f of Object.values(files)) writeFileSync(f, "x");
    expect(removeLeftoverTemps(dir).sort()).toEqual([files.wav, files.events].sort());
    expect(existsSync(files.wav) || existsSync(files.events)).toBe(false);
    expect([files.mine, files.kept, files.notTemp].every((f) => existsSync(f))).toBe(true);
    expect(removeLeftoverTemps(dir)).toEqual([]);
  });
});
