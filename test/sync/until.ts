/** Waits until `probe` holds, polling every 20 ms; fails naming `what` after `timeoutMs` (a deadline, not a timing). */
export async function until(what: string, probe: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
