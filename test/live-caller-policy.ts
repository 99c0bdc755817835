import { bestTrigger, isQuestion, isRefusal } from "../src/core/caller/triggers";
import type { AgendaItem, CallerScript } from "../src/core/caller/types";
import type { AssistantPolicy } from "../src/core/target/policy";

/**
 * TEST ONLY — the brain of the local simulator that stands in for the live caller's GPT-Live service.
 * A real caller model reads its instructions (the caller's script) and listens; this policy is given the
 * same script and steps through its agenda the way the offline caller decides (trigger words of
 * src/core/caller/triggers.ts, response hints), answering what the assistant said (which reaches it over
 * the transcript bridge: no speech is understood). It opens the call with the request when asked to
 * (`greeting`), never delegates, and says goodbye when its goal is met or it was finally refused.
 */
export function agendaCallerPolicy(script: CallerScript): AssistantPolicy & { said: string[] } {
  const done = new Set<string>();
  const said: string[] = [];
  let opened = false;
  let finished = false;
  const eligible = () => script.agenda.filter((i) => !done.has(i.id) && i.after.every((a) => done.has(a)));
  const say = (text: string) => {
    said.push(text);
    return { kind: "reply" as const, text };
  };
  const take = (item: AgendaItem) => {
    done.add(item.id);
    if (item.action === "finish") finished = true;
    return say(item.response_hint ?? item.commitment);
  };
  return {
    name: "test-agenda-caller",
    version: "1",
    said,
    greeting() {
      opened = true;
      said.push(script.request);
      return script.request;
    },
    frontend({ request }) {
      // The assistant opened the call: state the request.
      if (!opened) {
        opened = true;
        return say(script.request);
      }
      // Goodbye said: the caller stays silent (an empty reply says nothing) while the call winds down.
      if (finished) return { kind: "reply", text: "" };
      const speakable = eligible().filter((i) => i.action !== "wait" && i.action !== "backchannel");
      const matched = bestTrigger(request, speakable)?.item;
      const owed = speakable.find((i) => i.required && (i.action === "answer" || i.action === "correct"));
      const item = matched ?? (isQuestion(request) ? (owed ?? speakable.find((i) => i.action === "finish")) : undefined);
      if (item) return take(item);
      // As the offline caller decides: with nothing left to say, it closes only when asked something or
      // refused; a statement ("One moment while I book that.") gets no reply — the answer is coming.
      if (script.agenda.every((i) => !i.required || done.has(i.id)) && (isQuestion(request) || isRefusal(request))) {
        finished = true;
        return say(isRefusal(request) ? "Fine. Goodbye." : "No, that's all. Thank you, goodbye.");
      }
      return { kind: "reply", text: "" };
    },
    async backend() {
      throw new Error("the test caller never delegates");
    },
  };
}
