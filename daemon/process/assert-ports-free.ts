import { createServer } from 'node:net'

/**
 * Fails fast, before any chain starts, when a port the daemon needs is taken or the host is not local. The real
 * listen later can still race with another process; its error is translated the same way.
 */
export async function assertPortsFree(targets: ReadonlyArray<{ host: string; port: number; what: string }>): Promise<void> {
  for (const target of targets) {
    await new Promise<void>((resolve, reject) => {
      const server = createServer()
      server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, target)))
      server.listen({ host: target.host, port: target.port, exclusive: true }, () => server.close(() => resolve()))
    })
  }
}

export function listenError(error: NodeJS.ErrnoException, target: { host: string; port: number; what: string }): Error {
  const where = `${target.host}:${target.port}`
  if (error.code === 'EADDRINUSE') return new Error(`cannot start the ${target.what}: ${where} is already in use`, { cause: error })
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
    return new Error(`cannot start the ${target.what}: ${target.host} is not an address of this machine`, { cause: error })
  }
  if (error.code === 'EACCES') return new Error(`cannot start the ${target.what}: no permission to listen on ${where}`, { cause: error })
  return error
}
