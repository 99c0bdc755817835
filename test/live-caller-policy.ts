import { AgendaFollower } from "../src/core/caller/agenda-follower";
import type { CallerScript } from "../src/core/caller/types";
import type { AssistantPolicy } from "../src/core/target/policy";

/**
 * TEST ONLY — the brain of the local simulator that stands in for the live caller's GPT-Live service.
 * A real caller model reads its instructions (the caller's script) and listens; this policy is given the
 * same script and steps through its agenda with the offline caller's own decisions
 * (src/core/caller/agenda-follower.ts, response hints), answering what the assistant said (which reaches it
 * over the transcript bridge: no speech is understood). It opens the call with the request when asked to
 * (`greeting`), never delegates, and says goodbye when its goal is met or it was finally refused.
 */
export function agendaCallerPolicy(script: CallerScript): AssistantPolicy & { said: string[] } {
  const follower = new AgendaFollower(script);
  const said: string[] = [];
  let opened = false;
  const say = (text: string) => {
    said.push(text);
    return { kind: "reply" as const, text };
  };
  return {
    name: "test-agenda-caller",
    version: "1",
    said,
    greeting() {
      opened = true;
      const text = follower.opening(null).text;
      said.push(text);
      return text;
    },
    frontend({ request }) {
      // The assistant opened the call: state the request.
      if (!opened) {
        opened = true;
        return say(follower.opening(request).text);
      }
      // Goodbye said: the caller stays silent (an empty reply says nothing) while the call winds down.
      if (follower.closingSaid) return { kind: "reply", text: "" };
      // A statement ("One moment while I book that.") gets no reply — the answer is coming.
      const line = follower.respondTo(request);
      return line ? say(line.text) : { kind: "reply", text: "" };
    },
    async backend() {
      throw new Error("the test caller never delegates");
    },
  };
}
