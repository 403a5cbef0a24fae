import { createHook } from 'node:async_hooks';

let kept: object | null = null;

/**
 * Holds one of Node's own `process.nextTick` objects for the life of the process, so that
 * the hidden classes (maps) V8 gave their shape are never collected.
 *
 * Why: every request makes a few of these objects (stream ends, resumes, writes), with an
 * object literal inside `process.nextTick` whose two first keys are computed (the async-id
 * symbols). V8 defines such keys through a cache that goes from one map straight to
 * "megamorphic" as soon as it meets a second map, and megamorphic means the runtime, not
 * compiled code, defines every key of every such object from then on. The objects live a
 * few microseconds; when an old-generation collection ran at a moment none was alive, their
 * maps went with it, the next object got new maps, and the process stayed on the slow path
 * for good: 20-35% fewer redirects per second (`perf` put `Runtime_DefineKeyedOwnPropertyIn
 * Literal` and `JSObject::MigrateToMap` under `process.nextTick`). Whether it happened
 * depended on when such collections fell, so it came and went from one start to the next,
 * and with click counting on (whose flushes allocate and trigger collections between
 * requests) in most starts (BENCHMARKS.md, 2026-12-03). One object held keeps the maps.
 *
 * The object is caught by an `init` async hook enabled for one `nextTick` call only.
 * Returns it (the same one on every call).
 */
export function keepTickObjectShape(): object | null {
  if (kept !== null) return kept;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && kept === null) kept = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => undefined);
  } finally {
    hook.disable();
  }
  return kept;
}
