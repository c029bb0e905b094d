/**
 * The order statistics every interval reads. The preregistered rule sorts the n kept replicates
 * and takes those at ⌊0.025·(n−1)⌋ and ⌊0.975·(n−1)⌋; only those two ranks are needed, so the
 * replicates are partitioned in place by selection instead of sorted in full. The percentile
 * interval and the calibrated ones (widened percentile, bootstrap-t) all read their bounds here.
 */
/** The percentile interval of the kept (non-NaN) replicates; partitions `replicates` in place. */
export function percentile(replicates, alpha) {
    let n = 0;
    for (let i = 0; i < replicates.length; i++)
        if (!Number.isNaN(replicates[i]))
            replicates[n++] = replicates[i];
    return orderStatistics(replicates.subarray(0, n), alpha);
}
/** The two order statistics of replicates that are all kept; partitions them in place. */
export function orderStatistics(kept, alpha) {
    const n = kept.length;
    if (n === 0)
        return { low: null, high: null, n: 0 };
    // The quantiles as written in the protocol (0.025 and 0.975), not as 1 − 0.95 happens to round.
    const lowQ = Number(alpha.toPrecision(12));
    const highQ = Number((1 - lowQ).toPrecision(12));
    const lowIndex = Math.floor(lowQ * (n - 1));
    const highIndex = Math.floor(highQ * (n - 1));
    select(kept, lowIndex, 0, n - 1);
    // Everything right of lowIndex is now ≥ it; select there so the low order statistic stays put.
    if (highIndex > lowIndex)
        select(kept, highIndex, lowIndex + 1, n - 1);
    return { low: kept[lowIndex], high: kept[highIndex], n };
}
/**
 * Floyd–Rivest selection: afterwards a[k] is the k-th smallest of a[left..right]. For the
 * interval's extreme ranks (249 and 9749 of 10,000) it narrows the range from a small sample first,
 * so it touches each element little more than once.
 */
function select(a, k, left, right) {
    while (right > left) {
        if (right - left > 600) {
            const n = right - left + 1;
            const m = k - left + 1;
            const z = Math.log(n);
            const s = 0.5 * Math.exp((2 * z) / 3);
            const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1);
            const newLeft = Math.max(left, Math.floor(k - (m * s) / n + sd));
            const newRight = Math.min(right, Math.floor(k + ((n - m) * s) / n + sd));
            select(a, k, newLeft, newRight);
        }
        const t = a[k];
        let i = left;
        let j = right;
        swap(a, left, k);
        if (a[right] > t)
            swap(a, left, right);
        while (i < j) {
            swap(a, i, j);
            i++;
            j--;
            while (a[i] < t)
                i++;
            while (a[j] > t)
                j--;
        }
        if (a[left] === t)
            swap(a, left, j);
        else {
            j++;
            swap(a, j, right);
        }
        if (j <= k)
            left = j + 1;
        if (k <= j)
            right = j - 1;
    }
}
function swap(a, i, j) {
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
}
