import type { BatchClearingRecord, BatchEntryRecord, BatchRecord } from './batch-records.ts'

/**
 * A batch record's JSON text, byte for byte what `JSON.stringify(record)` writes, made from parts already written out
 * where the record's builder left them (docs/execution.md §8, "The commit record's text, written ahead"): the launch
 * tick's commit is one put of a ~2 MB record for 5,000 orders, and stringifying it on the event loop right before the
 * first collect took 7-13 ms. The builder (plan-batch.ts) writes each included entry's text while it makes the entry
 * (from a price-free head held on the order's batch entry form since the readying pass, plus its rank and shares) and
 * each candidate row's; the store then writes this text instead of stringifying the value again.
 *
 * Only an array's text is held, keyed by the array object: the record's arrays are never changed in place (a record
 * is copied with `{ ...record, ... }`, and an entry left out makes a new `included` array, which has no text and is
 * stringified as always). The length is compared on use all the same.
 */
const arrayTexts = new WeakMap<readonly unknown[], { length: number; text: string }>()

/** Holds `text` as the JSON text of `array` (what JSON.stringify(array) gives); the array must not change after. */
export function rememberArrayText(array: readonly unknown[], text: string): void {
  arrayTexts.set(array, { length: array.length, text })
}

const heldText = (array: unknown): string | undefined => {
  if (!Array.isArray(array)) return undefined
  const held = arrayTexts.get(array)
  return held && held.length === array.length ? held.text : undefined
}

/** A JSON object's text with some members' text given (the rest stringified), in the object's own key order. */
function objectText(object: object, given: (key: string, value: unknown) => string | undefined): string {
  let out = '{'
  for (const key of Object.keys(object)) {
    const value = (object as Record<string, unknown>)[key]
    const text = given(key, value) ?? JSON.stringify(value)
    // JSON.stringify leaves out a member whose value has no JSON (undefined, a function, a symbol).
    if (text === undefined) continue
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${text}`
  }
  return `${out}}`
}

/**
 * The record's JSON text when some of its arrays' text is held (its included entries, its clearing's candidate
 * rows); undefined when none is (the caller stringifies the record as always). Tested byte for byte against
 * JSON.stringify (test/unit/journal/batch-record-text.test.ts).
 */
export function batchRecordText(record: BatchRecord): string | undefined {
  const included = heldText(record.included)
  const candidates = heldText(record.clearing?.candidates)
  if (included === undefined && candidates === undefined) return undefined
  return objectText(record, (key, value) => {
    if (key === 'included') return included
    if (key === 'clearing' && candidates !== undefined && value !== null && typeof value === 'object')
      return objectText(value, (k) => (k === 'candidates' ? candidates : undefined))
    return undefined
  })
}

/**
 * The price-free start of an included entry's JSON text, up to its rank: `{"keyId":…,"slug":…,"userIndex":…,
 * "wallet":…,"orderId":…,"spendAtoms":…,"rank":` (BatchEntryRecord's fields in the order plan-batch.ts writes them).
 */
export function entryHeadText(entry: Pick<BatchEntryRecord, 'keyId' | 'slug' | 'userIndex' | 'wallet' | 'orderId' | 'spendAtoms'>): string {
  const s = JSON.stringify
  return `{"keyId":${s(entry.keyId)},"slug":${s(entry.slug)},"userIndex":${s(entry.userIndex)},"wallet":${s(entry.wallet)},"orderId":${s(entry.orderId)},"spendAtoms":${s(entry.spendAtoms)},"rank":`
}

/**
 * An included entry's JSON text from its head (entryHeadText) and what the launch decides: its rank and its predicted
 * shares (bigints' decimal text, which JSON writes as is between quotes).
 */
export function entryText(head: string, rank: number, gross: string, fee: string, net: string): string {
  return `${head}${JSON.stringify(rank)},"predicted":{"gross":"${gross}","fee":"${fee}","net":"${net}"}}`
}

/** The JSON text of an array from its elements' texts. */
export const arrayText = (texts: readonly string[]): string => `[${texts.join(',')}]`

/** The clearing record's candidate row's JSON text. */
export const candidateRowText = (row: BatchClearingRecord['candidates'][number]): string => JSON.stringify(row)
