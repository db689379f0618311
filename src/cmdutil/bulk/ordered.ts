// Results handed out in the order of their items, each as soon as it and every earlier one are
// settled: every result ready by then in one batch (one write for them, not one a row). The
// concurrency is p-limit's, in the runner; this only puts settled results back in order.
export async function* inOrder<R>(results: readonly Promise<R>[]): AsyncGenerator<R[]> {
  const settled = new Map<number, R>()
  let failed: { error: unknown } | undefined
  let out = 0
  let wake = () => {}
  results.forEach((result, index) =>
    result.then(
      (value) => {
        settled.set(index, value)
        if (index === out) wake()
      },
      (error: unknown) => {
        failed ??= { error }
        wake()
      },
    ),
  )
  while (out < results.length) {
    if (!settled.has(out) && !failed) await new Promise<void>((resolve) => (wake = resolve))
    if (failed) throw failed.error
    const batch: R[] = []
    for (; settled.has(out); out++) {
      batch.push(settled.get(out)!)
      settled.delete(out)
    }
    yield batch
  }
}
