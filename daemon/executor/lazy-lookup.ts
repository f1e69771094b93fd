/** Lookups built so far in this process (the tests count what a launch tick builds before its first send). */
let builtCount = 0
export const lazyLookupsBuilt = (): number => builtCount

/** A lookup by key whose map is built only when first asked (then once): `get` as a Map's. */
export interface LazyLookup<V> {
  get(key: string): V | undefined
  /** Builds the map now (if not yet). */
  build(): void
  /** Whether the map was built. */
  readonly built: boolean
}

/**
 * A map of the launch tick's size (5,000 entries: followers by key id, decisions by key id) that a batch-only tick
 * needs only after its sends (the orders' moves, the decision) is built then, not before the first collect
 * (docs/execution.md §8, "The launch tick's CPU from its start to the first collect, profiled").
 */
export function lazyLookup<V>(build: () => Map<string, V>): LazyLookup<V> {
  let map: Map<string, V> | undefined
  const built = (): Map<string, V> => {
    if (map === undefined) {
      builtCount++
      map = build()
    }
    return map
  }
  return {
    get: (key) => built().get(key),
    build() {
      built()
    },
    get built() {
      return map !== undefined
    },
  }
}
