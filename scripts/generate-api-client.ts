/**
 * `npm run api:client`: regenerates the typed client's types (test/api/typed-client/prebuy-api.generated.ts) from the
 * public API's OpenAPI document with openapi-typescript (tools/openapi-client). test/api/openapi-typed-client.test.ts
 * generates them again from the document the running server serves and fails when the two differ, so a change to
 * the API that is not reflected in the checked-in types (and in the README flow that type-checks against them) is
 * caught.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { buildOpenApiDocument } from '../src/api/openapi.ts'

export const GENERATED_TYPES = 'test/api/typed-client/prebuy-api.generated.ts'
export const GENERATOR = 'tools/openapi-client/generate.mjs'

/**
 * The generator's output for one OpenAPI document (a JSON value). Asynchronous on purpose: a server in the same
 * process (the test's) keeps answering and timing out its idle connections while the generator runs.
 */
export async function generateTypes(document: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'prebuy-openapi-'))
  try {
    const file = join(dir, 'openapi.json')
    await writeFile(file, JSON.stringify(document))
    return (await promisify(execFile)(process.execPath, [GENERATOR, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })).stdout
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await writeFile(GENERATED_TYPES, await generateTypes(buildOpenApiDocument()))
  process.stdout.write(`wrote ${GENERATED_TYPES}\n`)
}
