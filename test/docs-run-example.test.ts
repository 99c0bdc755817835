import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { AgendaFollower } from "../src/core/caller/agenda-follower";
import { callerScript } from "../src/core/caller/script";
import { main } from "../src/core/cli/main";
import { loadDataset } from "../src/core/dataset/load";
import { RESTAURANT } from "./restaurant-lexicon";

/*
 * The RUN example that ships with the docs (docs/examples/run-dataset.json, shown in docs/conversations.md)
 * cannot drift: it loads with the real dataset loader, `crashlab validate --package` checks it against the
 * bundled restaurant world as a package author would, the agenda printed on the page is the file's, and
 * the conversation printed on the page is what the offline caller says to those assistant turns.
 */

const repo = resolve(__dirname, "..");
const EXAMPLE = join(repo, "docs/examples/run-dataset.json");
const PAGE = readFileSync(join(repo, "docs/conversations.md"), "utf8");

async function cli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {} });
  return { code, stdout, stderr };
}

/** The page's fenced blocks of one language, in order. */
function blocks(language: string): string[] {
  return [...PAGE.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
}

describe("the RUN example in the docs", () => {
  it("loads with the dataset loader as one multi-turn scenario", () => {
    const { dataset } = loadDataset(EXAMPLE);
    expect(dataset.scenarios).toHaveLength(1);
    const [scenario] = dataset.scenarios;
    expect(scenario!.interaction).toBe("multi_turn");
    expect(scenario!.simulation_parameters!.agenda.map((i) => i.action)).toEqual(["correct", "answer", "finish"]);
    expect(scenario!.expected.procedure!.steps.some((s) => s.critical)).toBe(true);
  });

  it("validates against the bundled restaurant package's world", async () => {
    const r = await cli(["validate", "--package", "crashlab", EXAMPLE]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain('valid, 1 case(s) from 1 dataset(s) checked against world "restaurant"');
    expect(r.code).toBe(0);
  });

  it("is linked from the page, and the page shows the file's simulation_parameters exactly", () => {
    expect(PAGE).toContain("](examples/run-dataset.json)");
    const raw = JSON.parse(readFileSync(EXAMPLE, "utf8")) as { scenarios: Array<{ simulation_parameters: unknown }> };
    const shown = blocks("json").map((b) => JSON.parse(b) as unknown);
    expect(shown).toContainEqual(raw.scenarios[0]!.simulation_parameters);
  });

  it("the conversation on the page is what the offline caller says to those assistant turns", () => {
    const [transcript] = blocks("text").filter((b) => b.startsWith("CALLER (opening):"));
    expect(transcript).toBeDefined();
    const lines = transcript!.trim().split("\n").map((line) => {
      const m = /^(CALLER \((\w+)\)|ASSISTANT): (.*)$/.exec(line);
      if (!m) throw new Error(`not a conversation line: ${line}`);
      return m[2] ? { speaker: "caller" as const, intent: m[2], text: m[3]! } : { speaker: "assistant" as const, text: m[3]! };
    });

    const follower = new AgendaFollower(callerScript(loadDataset(EXAMPLE).dataset.scenarios[0]!, "caller", RESTAURANT));
    const said: Array<{ intent: string; text: string }> = [];
    const opening = follower.opening(null);
    said.push({ intent: opening.intent, text: opening.text });
    for (const line of lines) {
      // After its closing words the caller no longer answers (the call is draining).
      if (line.speaker !== "assistant" || follower.closingSaid) continue;
      const reply = follower.respondTo(line.text);
      if (reply) said.push({ intent: reply.intent, text: reply.text });
    }
    expect(said).toEqual(lines.filter((l) => l.speaker === "caller").map(({ intent, text }) => ({ intent, text })));
    expect(follower.goalMet()).toBe(true);
  });
});
