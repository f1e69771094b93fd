/**
 * Sizes of the signed chunks handed to the bundler as soon as each is ready (each becomes at least one handleOps; the
 * last size repeats): the first handleOps of a large batch goes out after 4 signatures (~3-6 ms of signing)
 * instead of after all of them (0.5-1.5 ms each). Later chunks stay at 64 because a block is filled transaction by
 * transaction: a big one that does not fit in what is left of the block waits for the next block with all its
 * operations (measured: a 256-operation handleOps of 90M gas missed a 150M block that still had 82M free).
 * A batch of at most SINGLE_CHUNK_MAX operations stays one chunk: splitting it would save little and cost transactions.
 */
export const DEFAULT_CHUNK_SIZES: readonly number[] = [4, 60, 64]
export const SINGLE_CHUNK_MAX = 64

/** Request indexes per chunk, and which request carries its wallet's initCode. */
export interface ChunkPlan {
  chunks: number[][]
  deploys: boolean[]
}

/** The chunk sizes of a batch: one chunk unless its chunks are handed on one by one and it is large. */
export const chunkSizesFor = (requests: number, handedOn: boolean, chunkSizes: readonly number[] = DEFAULT_CHUNK_SIZES): readonly number[] =>
  handedOn && requests > SINGLE_CHUNK_MAX ? chunkSizes : [Number.MAX_SAFE_INTEGER]

/**
 * Splits a batch (the lower-case sender of each request, in request order) into chunks of the given sizes, the last
 * size repeating. A wallet this batch deploys (`deployers`) carries initCode on its first operation only, and keeps
 * all its operations in the chunk of that first one: the chunk's simulation would not see the deployment otherwise.
 */
export function planChunks(senders: readonly string[], deployers: ReadonlySet<string>, sizes: readonly number[]): ChunkPlan {
  const toDeploy = new Set(deployers)
  const chunks: number[][] = []
  const deployChunk = new Map<string, number>()
  const deploys: boolean[] = []
  for (const [index, key] of senders.entries()) {
    const first = toDeploy.delete(key)
    deploys.push(first)
    const joined = deployChunk.get(key)
    if (joined !== undefined) {
      chunks[joined]?.push(index)
      continue
    }
    const last = chunks[chunks.length - 1]
    const limit = sizes[Math.min(chunks.length - 1, sizes.length - 1)] ?? 1
    if (!last || last.length >= limit) chunks.push([index])
    else last.push(index)
    if (first) deployChunk.set(key, chunks.length - 1)
  }
  return { chunks, deploys }
}
