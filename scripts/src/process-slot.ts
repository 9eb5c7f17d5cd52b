/**
 * A value kept for the whole process under a registered symbol (Symbol.for), whichever module
 * instance asks: Astro loads the config and the pages as separate module instances, and a process
 * that builds again (site/integrations/build-server.ts) loads the pages' modules, and the modules of
 * this package they use, anew for each build.
 */
export function processSlot<T>(key: string) {
  const symbol = Symbol.for(key)
  const holder = globalThis as { [symbol]?: T }
  return {
    set: (value: T | undefined): void => {
      holder[symbol] = value
    },
    get: (): T | undefined => holder[symbol],
    /** The value, made by `make` if the slot is empty. */
    kept: (make: () => T): T => (holder[symbol] ??= make()),
  }
}

/**
 * `make(object)`, made once for each object for the whole process (a WeakMap in a processSlot):
 * a process that builds again reads an unchanged business as the same object, and what a build
 * works out from it is not worked out again.
 */
export function processMemo<K extends object, V>(key: string, make: (object: K) => V): (object: K) => V {
  const slot = processSlot<WeakMap<K, V>>(key)
  return (object) => {
    const known = slot.kept(() => new WeakMap())
    let value = known.get(object)
    if (value === undefined) known.set(object, (value = make(object)))
    return value
  }
}
