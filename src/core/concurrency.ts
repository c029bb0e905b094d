/** A bounded-concurrency map whose result does not depend on which call finishes first. */

/**
 * Calls `fn` on every item with at most `limit` calls in flight, starting them in input order, and
 * returns the results in input order. After the first failure no new call starts; once the calls
 * in flight have settled, the failure of the earliest item in input order is thrown. Every item
 * before a failing one has started by then, so which error is thrown does not depend on timing.
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`concurrency must be a positive whole number, not ${limit}`);
  const results = new Array<R>(items.length);
  let next = 0;
  let failedAt = items.length; // the earliest failed index so far; items.length while none has
  let failure: unknown;
  const worker = async (): Promise<void> => {
    while (failedAt === items.length && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (error) {
        if (index < failedAt) {
          failedAt = index;
          failure = error;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failedAt < items.length) throw failure;
  return results;
}
