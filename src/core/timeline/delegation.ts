/** The delegation lifecycle from a trial's events, and when each delegation was active. */

import { TimelineInputError } from "./errors";
import type { Interval } from "./intervals";

export type DelegationTarget = "client" | "responses";

/**
 * The delegation lifecycle, normalized from protocol and harness events. Every `at_ms` is on the
 * trial timeline, read from one clock (see `DelegationTimingSource` in metrics.ts).
 *
 * - `delegation_created`: `session.delegation.created`; a Responses delegation may name its first
 *   backend response.
 * - `backend_response_created` / `backend_response_completed`: a backend response for this delegation
 *   (the managed Responses run, or the application's own backend under client delegation).
 *   "completed" covers response.completed, failed and incomplete: the response is no longer open.
 * - `client_content_delivered`: the application delivered the speakable result of a client
 *   delegation (`session.commentary.append`); silent progress (`thinking`) does not count.
 * - `tool_call_requested` / `tool_call_completed`: one tool call, completed or failed.
 * - `followup_response_completed`: the backend response that continued after managed tool outputs
 *   completed. It also closes that response (`response_id`, or any response created while the
 *   follow-up was awaited), so a normalizer may report the follow-up either way.
 */
export type DelegationLifecycleEvent =
  | { kind: "delegation_created"; at_ms: number; delegation_id: string; target: DelegationTarget; response_id?: string }
  | { kind: "backend_response_created"; at_ms: number; delegation_id: string; response_id: string }
  | { kind: "backend_response_completed"; at_ms: number; delegation_id: string; response_id: string }
  | { kind: "client_content_delivered"; at_ms: number; delegation_id: string }
  | { kind: "tool_call_requested"; at_ms: number; delegation_id: string; call_id: string }
  | { kind: "tool_call_completed"; at_ms: number; delegation_id: string; call_id: string }
  | { kind: "followup_response_completed"; at_ms: number; delegation_id: string; response_id?: string };

export interface DelegationActivity {
  delegation_id: string;
  target: DelegationTarget;
  created_ms: number;
  /** When nothing was left open; null when something still was at the end of the observation. */
  active_until_ms: number | null;
  /** Active spans; an open one is cut at the observation end. Usually exactly one. */
  intervals: Interval[];
  /** What was still open at the end: "client", "backend", "response:<id>", "tool:<call_id>", "followup". */
  open_items: string[];
}

interface Tracker {
  activity: DelegationActivity;
  open: Set<string>;
  activeSince: number | null;
  /** Responses created while a managed follow-up was awaited: their completion is the follow-up. */
  followupCandidates: Set<string>;
}

/**
 * When each delegation was active. A delegation is active from its creation while any client
 * delegation, backend response, tool call or awaited follow-up response is open. Under Responses
 * delegation a completed tool call opens a wait for the follow-up response, which ends with
 * `followup_response_completed` or with the completion of a backend response created during the
 * wait. Events are taken in time order (ties keep input order); activity that resumes after
 * everything closed starts a new interval.
 */
export function delegationActivity(
  events: readonly DelegationLifecycleEvent[],
  observationEndMs: number,
): DelegationActivity[] {
  const trackers = new Map<string, Tracker>();
  const ordered = events.map((event, index) => ({ event, index })).sort((a, b) => a.event.at_ms - b.event.at_ms || a.index - b.index);

  for (const { event, index } of ordered) {
    if (!Number.isFinite(event.at_ms)) {
      throw new TimelineInputError(`events[${index}].at_ms`, `must be a finite number of ms, got ${event.at_ms}`);
    }
    if (event.kind === "delegation_created") {
      if (trackers.has(event.delegation_id)) {
        throw new TimelineInputError(`events[${index}]`, `delegation ${event.delegation_id} was created twice; delegation ids must be unique`);
      }
      const first = event.target === "client" ? "client" : event.response_id ? `response:${event.response_id}` : "backend";
      trackers.set(event.delegation_id, {
        activity: {
          delegation_id: event.delegation_id,
          target: event.target,
          created_ms: event.at_ms,
          active_until_ms: null,
          intervals: [],
          open_items: [],
        },
        open: new Set([first]),
        activeSince: event.at_ms,
        followupCandidates: new Set(),
      });
      continue;
    }
    const tracker = trackers.get(event.delegation_id);
    if (!tracker) {
      throw new TimelineInputError(
        `events[${index}]`,
        `${event.kind} at ${event.at_ms} ms refers to delegation ${event.delegation_id}, which has not been created by then; ` +
          "include its delegation_created event (with an earlier or equal at_ms)",
      );
    }
    const { open } = tracker;
    const add = (item: string) => {
      if (tracker.activeSince === null) tracker.activeSince = event.at_ms; // resumed after everything closed
      open.add(item);
    };
    switch (event.kind) {
      case "backend_response_created":
        open.delete("backend");
        if (open.has("followup")) tracker.followupCandidates.add(event.response_id);
        add(`response:${event.response_id}`);
        break;
      case "backend_response_completed":
        open.delete("backend");
        open.delete(`response:${event.response_id}`);
        if (tracker.followupCandidates.delete(event.response_id)) open.delete("followup");
        break;
      case "client_content_delivered":
        open.delete("client");
        break;
      case "tool_call_requested":
        add(`tool:${event.call_id}`);
        break;
      case "tool_call_completed":
        open.delete(`tool:${event.call_id}`);
        // A managed tool result is spoken only after the backend continues (docs/audio-and-metrics.md).
        if (tracker.activity.target === "responses") add("followup");
        break;
      case "followup_response_completed":
        open.delete("followup");
        if (event.response_id !== undefined) open.delete(`response:${event.response_id}`);
        for (const id of tracker.followupCandidates) open.delete(`response:${id}`);
        tracker.followupCandidates.clear();
        break;
    }
    if (open.size === 0 && tracker.activeSince !== null) {
      tracker.activity.intervals.push({ start_ms: tracker.activeSince, end_ms: event.at_ms });
      tracker.activity.active_until_ms = event.at_ms;
      tracker.activeSince = null;
    }
  }

  return [...trackers.values()].map(({ activity, open, activeSince }) => {
    if (activeSince === null) return activity;
    return {
      ...activity,
      active_until_ms: null,
      intervals: [...activity.intervals, { start_ms: activeSince, end_ms: Math.max(activeSince, observationEndMs) }],
      open_items: [...open].sort(),
    };
  });
}
