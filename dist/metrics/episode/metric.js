/** |hits| / |pool|, or null when the pool is empty. */
export function share(pool, hit) {
    return pool.length === 0 ? null : pool.filter(hit).length / pool.length;
}
