import { once } from 'node:events'
import { createServer } from 'node:net'

/**
 * Ports for the daemons and anvils the tests start, picked below Linux's ephemeral range (32768-60999,
 * /proc/sys/net/ipv4/ip_local_port_range): a port there that is free now can be taken by any outgoing connection of a
 * parallel test (an RPC call, a fetch) before the daemon or anvil binds it. CI once failed on exactly that
 * (`cannot start the public API: 127.0.0.1:35255 is already in use`, stop 35). A port below the range is only ever
 * taken by another test's explicit listen, and those pick at random from 12,000 ports and check first.
 */
const LOW = 20_000
const SPAN = 12_000

export async function isFree(port: number): Promise<boolean> {
  const server = createServer()
  try {
    server.listen({ port, host: '127.0.0.1', exclusive: true })
    await once(server, 'listening')
    return true
  } catch {
    return false
  } finally {
    server.close()
  }
}

/** A port that is free now, below the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOW + Math.floor(Math.random() * SPAN)
    if (await isFree(port)) return port
  }
  throw new Error('no free port below the ephemeral range')
}

/** A port p with p and p + 1 free (the daemon's public and admin ports), below the ephemeral range. */
export async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOW + Math.floor(Math.random() * SPAN)
    if ((await isFree(port)) && (await isFree(port + 1))) return port
  }
  throw new Error('no free port pair below the ephemeral range')
}
