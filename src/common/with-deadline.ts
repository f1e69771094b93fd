/**
 * Settles like `work`, or rejects with `onTimeout()` once `ms` have passed, whichever comes first. The work itself is
 * not cancelled (its late result is ignored): use it where an answer that comes too late is worthless to the caller,
 * such as an HTTP request waiting on a chain that stopped answering.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms)
  })
  work.catch(() => undefined)
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer))
}
