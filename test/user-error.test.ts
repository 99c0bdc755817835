/** Errors the user can fix are one kind (UserError): recognised by their brand, not by a list of class names. */
import { describe, expect, it } from "vitest";
import { DatasetError, isUserError, ReviewError, UserError, WorldSetupError } from "../src/alpha/index";
import { UsageError } from "../src/core/cli/options";
import { SettingsError } from "../src/core/settings/errors";
import { cli } from "./cli-harness";

describe("UserError", () => {
  it("covers the errors a user causes, and not our own", () => {
    for (const error of [new DatasetError("d.json", [{ path: "scenarios[0]", message: "missing" }]), new ReviewError("bad"), new WorldSetupError("bad"), new UsageError("bad"), new SettingsError("bad")]) {
      expect(isUserError(error), error.name).toBe(true);
      expect(error).toBeInstanceOf(UserError);
    }
    expect(isUserError(new Error("bug"))).toBe(false);
    expect(isUserError(new TypeError("x is undefined"))).toBe(false);
    expect(isUserError({ message: "not an Error" })).toBe(false);
    expect(isUserError(undefined)).toBe(false);
  });

  it("is told by its brand: a name alone does not make an error the user's", () => {
    const named = new Error("looks like one");
    named.name = "PlanError";
    expect(isUserError(named)).toBe(false);
  });

  it("recognises a user error thrown by a second copy of crashlab (same brand, another class)", () => {
    class OtherCopyError extends Error {
      constructor(message: string) {
        super(message);
        Object.defineProperty(this, Symbol.for("crashlab.user-error"), { value: true });
      }
    }
    const error = new OtherCopyError("from a package's own install");
    expect(error).not.toBeInstanceOf(UserError);
    expect(isUserError(error)).toBe(true);
  });

  it("the CLI prints a user error as one paragraph and exits 2", async () => {
    const result = await cli(["run", "--repetitions", "zero"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^crashlab: --repetitions .*\(see `crashlab --help`\)\n$/);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  });
});
