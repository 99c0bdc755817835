/** Copy-on-write drafts for a world write's fast path, giving what immer gives, or handing the write back to immer. */

import { freeze, type Patch } from "immer";

/*
 * Copy-on-write drafts for JSON-shaped state: the fast path of a write.
 *
 * immer's produceWithPatches costs more than everything else in a small write put together (scopes,
 * finalization callbacks, inverse patches, a deep-freeze walk over every entry of each copied record).
 * A world write needs only part of it: drafts of plain objects and arrays, and assignment and deletion
 * on plain objects. This file does that part and gives exactly what immer gives for it: the same next
 * state (structurally shared, deeply frozen) and the same patches in the same order; the traps below
 * follow immer 11's object traps step by step. Anything else (writing to an array, assigning a draft,
 * a Map, Set or class instance, defineProperty, symbols, …) marks the session `unsupported`: the engine
 * throws the session away and runs the operation again on immer. A test in world-engine.test.ts runs
 * random recipes through both and compares states and patches.
 */

/** Marks a proxy as one of ours and reaches its node (immer's DRAFT_STATE plays the same role). */
const NODE: unique symbol = Symbol("world draft");

/** Thrown from a trap when the operation does something only immer can follow. */
class UnsupportedDraftUse extends Error {
  constructor(what: string) {
    super(`the fast world draft does not support ${what}; the write is run again on immer`);
    this.name = "UnsupportedDraftUse";
  }
}

interface Node {
  readonly session: DraftSession<unknown>;
  readonly base: any;
  /** Shallow copy of `base`, made on the first write or the first child draft (as immer does). */
  copy: any;
  /** Keys assigned (true) or deleted (false), in first-touch order: the order of the patches. */
  assigned: Map<string, boolean> | undefined;
  modified: boolean;
  readonly parent: Node | undefined;
  readonly key: string | number | undefined;
  readonly isArray: boolean;
  draft: any;
  revoke: () => void;
}

/** One write's drafts: `root` goes to the operation, `finish()` gives the next state and its patches. */
export class DraftSession<S> {
  readonly root: S;
  /** Set when the operation did something only immer supports; `finish()` must then not be used. */
  unsupported = false;
  /** Every draft, in creation order: patches are generated newest first, as immer's callbacks pop. */
  private readonly nodes: Node[] = [];

  constructor(readonly base: S) {
    this.root = this.draftOf(base, undefined, undefined);
  }

  /**
   * The next state (the base itself when nothing changed) and the write's patches, immer-shaped; or
   * undefined when the operation did something only immer supports (then run it again on immer).
   */
  finish(): { next: S; patches: Patch[] } | undefined {
    try {
      if (this.unsupported) return undefined;
      const nodes = this.nodes;
      const root = nodes[0]!;
      if (!root.modified) return { next: this.base, patches: [] };
      const patches: Patch[] = [];
      // Newest first, as immer's finalization callbacks pop: a child was created after its parent, so
      // it is settled (its final value in the parent's copy) before the parent's patches are taken.
      for (let i = nodes.length - 1; i >= 0; i--) {
        const node = nodes[i]!;
        if (node.modified) {
          const assigned = node.assigned!;
          const path = assigned.size > 0 ? pathOf(node) : undefined;
          if (path !== undefined) {
            // Only a draft still reachable from the root speaks for the next state.
            patchesOf(node, path, patches);
            for (const [key, isSet] of assigned) if (isSet) this.freezeNew(node.copy[key]);
          }
          Object.freeze(node.copy);
        }
        // A child draft still in its slot gives way to its final value; a moved or removed one is dropped.
        const parent = node.parent;
        if (parent !== undefined && parent.copy[node.key!] === node.draft) {
          parent.copy[node.key!] = node.modified ? node.copy : node.base;
        }
      }
      if (this.unsupported) return undefined;
      return { next: root.copy as S, patches };
    } finally {
      for (const node of this.nodes) node.revoke();
    }
  }

  /** Revoke every draft without finishing (the write was refused or is rerun on immer). */
  discard(): void {
    for (const node of this.nodes) node.revoke();
  }

  /** Deep-freeze a value the operation put into the state, as immer's auto-freeze does. */
  private freezeNew(value: unknown): void {
    if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
    if ((value as { [NODE]?: Node })[NODE] !== undefined) {
      // A draft inside a new value: immer finalizes it in place, which this file does not do.
      this.unsupported = true;
      return;
    }
    if (!isJsonContainer(value)) {
      this.unsupported = true;
      return;
    }
    Object.freeze(value); // before recursing: a cycle stops at the frozen object
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) this.freezeNew(value[i]);
    } else {
      for (const key of Object.keys(value)) this.freezeNew((value as Record<string, unknown>)[key]);
    }
  }

  /** @internal */
  draftOf(base: any, parent: Node | undefined, key: string | number | undefined): any {
    const isArray = Array.isArray(base);
    const node: Node = {
      session: this as DraftSession<unknown>,
      base,
      copy: undefined,
      assigned: undefined,
      modified: false,
      parent,
      key,
      isArray,
      draft: undefined,
      revoke: noop,
    };
    // An array target keeps Array.isArray(draft) true; the node rides along as its only element.
    const { proxy, revoke } = isArray ? Proxy.revocable([node] as unknown as object, arrayTraps) : Proxy.revocable(node, objectTraps);
    node.draft = proxy;
    node.revoke = revoke;
    this.nodes.push(node);
    return proxy;
  }

  /** @internal */
  fail(what: string): never {
    this.unsupported = true;
    throw new UnsupportedDraftUse(what);
  }
}

function noop(): void {}

/** Plain objects and arrays: what the fast path drafts and freezes. */
function isJsonContainer(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const hasOwn = Object.prototype.hasOwnProperty;

function latest(node: Node): any {
  return node.copy ?? node.base;
}

/**
 * immer's prepareCopy: the copy is made once, before the first write or child draft. `record`: the copy
 * is made for adding a key, so the object is a record keyed by data (ids) rather than a fixed shape.
 */
function prepareCopy(node: Node, record = false): void {
  if (node.copy === undefined) {
    node.assigned = new Map();
    const base = node.base;
    node.copy = node.isArray ? Array.prototype.slice.call(base) : copyObject(base, record);
  }
}

/**
 * What immer's `{...base}` gives for string keys (same keys, same order, same prototype), copied key by
 * key: spreading a frozen record of many keys costs several times more in V8. A record that gains a key
 * is built in dictionary mode from the start: every fresh id would otherwise give the copy a new hidden
 * class, which costs more than the whole hash-table copy of a small record.
 */
function copyObject(base: object, record: boolean): Record<string, unknown> {
  let copy: Record<string, unknown>;
  if (Object.getPrototypeOf(base) === null) copy = Object.create(null);
  else if (record) {
    copy = { _: 0, __: 0 };
    delete copy._; // deleting a property other than the last one switches V8 to dictionary mode
    delete copy.__;
  } else copy = {};
  const keys = Object.keys(base);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    copy[key] = (base as Record<string, unknown>)[key];
  }
  return copy;
}

function markChanged(node: Node | undefined): void {
  while (node !== undefined && !node.modified) {
    node.modified = true;
    node = node.parent;
  }
}

/** immer's `is`: Object.is. */
function same(x: unknown, y: unknown): boolean {
  return x === y ? x !== 0 || 1 / (x as number) === 1 / (y as number) : x !== x && y !== y;
}

/** immer's getPath: the draft's path from the root, or undefined when it was moved or removed. */
function pathOf(node: Node): Array<string | number> | undefined {
  const path: Array<string | number> = [];
  for (let n = node; n.parent !== undefined; n = n.parent) {
    const holder = latest(n.parent);
    const value = holder[n.key!];
    if (value === undefined || (value !== n.draft && value !== n.copy) || !hasOwn.call(holder, n.key!)) return undefined;
    path.push(n.key!);
  }
  return path.reverse();
}

/** immer's generatePatchesFromAssigned (forward patches only). */
function patchesOf(node: Node, path: ReadonlyArray<string | number>, out: Patch[]): void {
  const { base, copy } = node;
  for (const [key, assigned] of node.assigned!) {
    const value = copy[key];
    const op = !assigned ? "remove" : hasOwn.call(base, key) ? "replace" : "add";
    if (op === "replace" && base[key] === value) continue;
    const at = [...path, key];
    out.push(op === "remove" ? { op, path: at } : { op, path: at, value });
  }
}

function protoDescriptor(source: object, prop: PropertyKey): PropertyDescriptor | undefined {
  if (!(prop in source)) return undefined;
  for (let proto = Object.getPrototypeOf(source); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const desc = Object.getOwnPropertyDescriptor(proto, prop);
    if (desc) return desc;
  }
  return undefined;
}

const objectTraps: ProxyHandler<Node> = {
  get(node, prop) {
    if (prop === NODE) return node;
    const source = latest(node);
    if (!hasOwn.call(source, prop)) {
      const desc = protoDescriptor(source, prop);
      return desc === undefined ? undefined : "value" in desc ? desc.value : desc.get?.call(node.draft);
    }
    const value = source[prop];
    // Only the base's own children are drafted: a child draft or a value the operation assigned is
    // returned as it is.
    if (typeof value !== "object" || value === null || value !== node.base[prop]) return value;
    // immer would hand a class instance back as it is, or draft a Map or Set: leave both to immer.
    if (!isJsonContainer(value)) node.session.fail("a value that is not a plain object or array");
    prepareCopy(node);
    const key = node.isArray ? +(prop as string) : (prop as string);
    const child = node.session.draftOf(value, node, key);
    node.copy[key] = child;
    return child;
  },
  has(node, prop) {
    return prop in latest(node);
  },
  ownKeys(node) {
    return Reflect.ownKeys(latest(node));
  },
  set(node, prop, value) {
    if (typeof prop === "symbol") node.session.fail("symbol keys");
    const key = prop as string;
    if (node.isArray) node.session.fail("writing to an array");
    const desc = protoDescriptor(latest(node), key);
    if (desc?.set) node.session.fail("a setter on the prototype");
    if (typeof value === "object" && value !== null && (value as { [NODE]?: Node })[NODE] !== undefined) {
      node.session.fail("assigning a draft");
    }
    if (!node.modified) {
      const current = latest(node)[key];
      const currentNode: Node | undefined = typeof current === "object" && current !== null ? current[NODE] : undefined;
      if (currentNode !== undefined && currentNode.base === value) {
        // Writing back the value a child draft stands for: nothing was assigned or deleted.
        node.copy[key] = value;
        node.assigned!.delete(key);
        return true;
      }
      if (same(value, current) && (value !== undefined || hasOwn.call(node.base, key))) return true;
      prepareCopy(node, !hasOwn.call(node.base, key));
      markChanged(node);
    }
    const copy = node.copy;
    if ((copy[key] === value && (value !== undefined || hasOwn.call(copy, key))) || (Number.isNaN(value) && Number.isNaN(copy[key]))) {
      return true;
    }
    copy[key] = value;
    node.assigned!.set(key, true);
    return true;
  },
  deleteProperty(node, prop) {
    if (typeof prop === "symbol") node.session.fail("symbol keys");
    if (node.isArray) node.session.fail("deleting from an array");
    const key = prop as string;
    prepareCopy(node);
    if (node.base[key] !== undefined || key in node.base) {
      node.assigned!.set(key, false);
      markChanged(node);
    } else {
      node.assigned!.delete(key);
    }
    delete node.copy[key];
    return true;
  },
  getOwnPropertyDescriptor(node, prop) {
    const owner = latest(node);
    const desc = Reflect.getOwnPropertyDescriptor(owner, prop);
    if (!desc) return desc;
    return { writable: true, configurable: !node.isArray || prop !== "length", enumerable: desc.enumerable, value: owner[prop] };
  },
  defineProperty(node) {
    return node.session.fail("Object.defineProperty");
  },
  getPrototypeOf(node) {
    return Object.getPrototypeOf(node.base);
  },
  setPrototypeOf(node) {
    return node.session.fail("Object.setPrototypeOf");
  },
};

/** Array drafts: the same traps on the node held in a one-element array. */
const arrayTraps: ProxyHandler<object> = {};
for (const name of Object.keys(objectTraps) as Array<keyof ProxyHandler<Node>>) {
  const trap = objectTraps[name] as (node: Node, ...rest: unknown[]) => unknown;
  (arrayTraps as Record<string, unknown>)[name] = (target: [Node], ...rest: unknown[]) => trap(target[0], ...rest);
}

/**
 * Deep-freeze a state as immer's `freeze(value, true)` does: plain objects and arrays here (a frozen
 * subtree is taken as frozen throughout), anything else by immer itself.
 */
export function freezeState<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    Object.freeze(value);
    for (let i = 0; i < value.length; i++) freezeState(value[i]);
  } else if (isJsonContainer(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) freezeState((value as Record<string, unknown>)[key]);
  } else {
    freeze(value, true);
  }
  return value;
}
