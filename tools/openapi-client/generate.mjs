// Turns the public API's OpenAPI document into TypeScript types for openapi-fetch, with openapi-typescript.
// Usage: node tools/openapi-client/generate.mjs <openapi.json> — the types go to standard output.
// It lives in this workspace because openapi-typescript 7 builds its output with the TypeScript 5 compiler API
// (peer dependency `typescript@^5.x`), which the project's TypeScript 7 no longer exposes; npm installs TypeScript 5
// for this workspace only.
import { readFile } from 'node:fs/promises'
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript'

const [file] = process.argv.slice(2)
if (!file) {
  process.stderr.write('usage: generate.mjs <openapi.json>\n')
  process.exit(2)
}
const document = JSON.parse(await readFile(file, 'utf8'))
const ast = await openapiTS(document, { alphabetize: true, exportType: true })
process.stdout.write(`${COMMENT_HEADER}${astToString(ast)}`)
