/**
 * Promise.withResolvers (ES2024; Node 20 lacks it): a promise with its resolve and reject, for a gate settled by other
 * code than the one that awaits it.
 */
export function withResolvers<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (reason: unknown) => void } {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
