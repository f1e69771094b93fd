/**
 * A self-contained HTML reference rendered from the OpenAPI document (no scripts, no CDN): one section per
 * operation with its parameters, body schema and responses, and the component schemas at the end.
 */
type Json = Record<string, unknown>

const escapeHtml = (value: unknown): string =>
  String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

/** Markdown-ish text (paragraphs, "- " bullets, `code`) to HTML. */
function prose(text: unknown): string {
  if (typeof text !== 'string' || text === '') return ''
  const html = escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>')
  const blocks: string[] = []
  let list: string[] = []
  const flush = () => {
    if (list.length) blocks.push(`<ul>${list.map((item) => `<li>${item}</li>`).join('')}</ul>`)
    list = []
  }
  for (const line of html.split('\n')) {
    const bullet = /^\s*- (.*)$/.exec(line)
    if (bullet) list.push(bullet[1] ?? '')
    else {
      flush()
      if (line.trim()) blocks.push(`<p>${line}</p>`)
    }
  }
  flush()
  return blocks.join('\n')
}

const refName = (schema: unknown): string | undefined => {
  const ref = (schema as Json | undefined)?.$ref
  return typeof ref === 'string' ? ref.split('/').at(-1) : undefined
}

function schemaLink(schema: unknown): string {
  const name = refName(schema)
  return name ? `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>` : `<code>${escapeHtml(JSON.stringify(schema))}</code>`
}

export function renderDocsHtml(document: Json): string {
  const info = document.info as Json
  const paths = document.paths as Record<string, Record<string, Json>>
  const components = document.components as { schemas: Record<string, Json> }
  const server = ((document.servers as Json[] | undefined)?.[0]?.url as string | undefined) ?? ''
  const operations: string[] = []
  const toc: string[] = []
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const id = `op-${method}-${path.replace(/[^a-z0-9]+/gi, '-')}`
      toc.push(`<li><a href="#${id}"><span class="m ${method}">${method.toUpperCase()}</span> ${escapeHtml(path)}</a></li>`)
      const params = (op.parameters as Json[] | undefined) ?? []
      const responses = op.responses as Record<string, Json>
      const secured = Array.isArray(op.security) && op.security.length > 0
      const body = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined
      operations.push(`<section id="${id}">
<h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(server + path)}</code></h3>
<p class="summary">${escapeHtml(op.summary)} · <em>${secured ? 'Bearer key required' : 'No credentials'}</em></p>
${prose(op.description)}
${params.length ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>schema</th><th>description</th></tr>${params.map((p) => `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td><td>${prose(p.description)}</td></tr>`).join('')}</table>` : ''}
${body ? `<h4>Request body</h4><p>application/json: ${schemaLink(body['application/json']?.schema)}</p>` : ''}
<h4>Responses</h4><table><tr><th>status</th><th>description</th><th>body</th></tr>${Object.entries(responses)
        .map(
          ([status, r]) =>
            `<tr><td>${escapeHtml(status)}</td><td>${prose(r.description)}</td><td>${r.content ? schemaLink((r.content as Record<string, Json>)['application/json']?.schema) : ''}</td></tr>`,
        )
        .join('')}</table>
</section>`)
    }
  }
  const schemas = Object.entries(components.schemas).map(
    ([name, schema]) =>
      `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${prose(schema.description)}<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></section>`,
  )
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} ${escapeHtml(info.version)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1d1d1f;line-height:1.45}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#f5f5f7;padding:.75rem;overflow:auto;border-radius:6px}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}
section{border-top:1px solid #eee;padding-top:.5rem;margin-top:1.5rem}.m{font-weight:700;padding:0 .3rem;border-radius:3px;color:#fff}
.get{background:#2b7a3d}.post{background:#1f5fa8}.patch{background:#a86a1f}.delete{background:#a8321f}.summary{color:#555}
</style></head><body>
<h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
<p>Machine-readable document: <a href="${escapeHtml(server)}/openapi.json">${escapeHtml(server)}/openapi.json</a></p>
${prose(info.description)}
<h2>Endpoints</h2><ul>${toc.join('')}</ul>
${operations.join('\n')}
<h2>Schemas</h2>
${schemas.join('\n')}
</body></html>`
}
