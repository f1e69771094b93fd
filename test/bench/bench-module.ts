/** One benchmark the runner can execute; the execution benchmark is added later as another module. */
export interface BenchContext {
  durationSeconds: number
  connections: number
}

export interface BenchModule {
  name: string
  /** Run only when named by --only (a part of another module, measured on its own). */
  onlyWhenAsked?: boolean
  run(context: BenchContext): Promise<Record<string, unknown>>
}
