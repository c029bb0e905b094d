/**
 * The bootstrap's random draws. `seedrandom` (the default) seeds seedrandom's Alea generator with
 * the protocol seed as a string (index = ⌊u·n⌋); `python` reproduces Python's `random.Random(seed).choice` exactly:
 * MT19937 seeded by `init_by_array` with the seed's 32-bit words, and `_randbelow(n)` drawing
 * `getrandbits(n.bit_length())` until the value is below n.
 */
import seedrandom from "seedrandom";
export function createDraw(name, seed) {
    if (name === "python") {
        const mt = new PythonRandom(seed);
        return (n) => mt.randbelow(n);
    }
    const rng = seedrandom.alea(String(seed));
    return (n) => Math.floor(rng() * n);
}
const N = 624;
const M = 397;
/** MT19937 as CPython's `random.Random` uses it. */
export class PythonRandom {
    mt = new Uint32Array(N);
    index = N + 1;
    constructor(seed) {
        if (!Number.isSafeInteger(seed))
            throw new RangeError("the Python RNG takes a safe integer seed");
        let n = BigInt(Math.abs(seed));
        const key = [];
        do {
            key.push(Number(n & 0xffffffffn));
            n >>= 32n;
        } while (n > 0n);
        this.initByArray(key);
    }
    initGenrand(s) {
        this.mt[0] = s >>> 0;
        for (let i = 1; i < N; i++) {
            const prev = this.mt[i - 1];
            const x = prev ^ (prev >>> 30);
            // 1812433253 * x + i, in 32-bit arithmetic.
            this.mt[i] = (Math.imul(1812433253, x) + i) >>> 0;
        }
        this.index = N;
    }
    initByArray(key) {
        this.initGenrand(19650218);
        let i = 1;
        let j = 0;
        for (let k = Math.max(N, key.length); k > 0; k--) {
            const prev = this.mt[i - 1];
            const x = prev ^ (prev >>> 30);
            this.mt[i] = ((this.mt[i] ^ Math.imul(x, 1664525)) + key[j] + j) >>> 0;
            i++;
            j++;
            if (i >= N) {
                this.mt[0] = this.mt[N - 1];
                i = 1;
            }
            if (j >= key.length)
                j = 0;
        }
        for (let k = N - 1; k > 0; k--) {
            const prev = this.mt[i - 1];
            const x = prev ^ (prev >>> 30);
            this.mt[i] = ((this.mt[i] ^ Math.imul(x, 1566083941)) - i) >>> 0;
            i++;
            if (i >= N) {
                this.mt[0] = this.mt[N - 1];
                i = 1;
            }
        }
        this.mt[0] = 0x80000000;
    }
    twist() {
        const mt = this.mt;
        for (let kk = 0; kk < N; kk++) {
            const y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % N] & 0x7fffffff);
            mt[kk] = (mt[(kk + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0)) >>> 0;
        }
        this.index = 0;
    }
    /** One 32-bit output (genrand_uint32). */
    next32() {
        if (this.index >= N)
            this.twist();
        let y = this.mt[this.index++];
        y ^= y >>> 11;
        y = (y ^ ((y << 7) & 0x9d2c5680)) >>> 0;
        y = (y ^ ((y << 15) & 0xefc60000)) >>> 0;
        y ^= y >>> 18;
        return y >>> 0;
    }
    /** getrandbits(k) for 1 ≤ k ≤ 32. */
    getrandbits(k) {
        return this.next32() >>> (32 - k);
    }
    /** `_randbelow_with_getrandbits(n)`: what `choice` uses. */
    randbelow(n) {
        const k = 32 - Math.clz32(n); // n.bit_length()
        let r = this.getrandbits(k);
        while (r >= n)
            r = this.getrandbits(k);
        return r;
    }
}
