/**
 * Stateless 32-bit hashing: every random number of the simulator is a hash of its coordinates
 * (seed, path, octave, index), so any point in history can be recomputed without replaying it.
 */

/** murmur3's finaliser: a fast avalanche on 32-bit integers. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a then fmix: a stable 32-bit id for a string (seed, exchange:symbol). */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** Combines a salt with an integer coordinate (which may exceed 32 bits, e.g. a minute index). */
export function hashIndex(salt: number, index: number): number {
  const lo = index >>> 0;
  const hi = index > 0xffffffff ? (index / 4294967296) >>> 0 : 0;
  return fmix32((salt + Math.imul(lo, 0x9e3779b1)) ^ Math.imul(hi, 0x85ebca77) ^ (salt >>> 7));
}

/** Derives a sub-salt (a new independent stream of numbers) from a salt and a small tag. */
export function subSalt(salt: number, tag: number): number {
  return fmix32(salt ^ Math.imul(tag + 1, 0x85ebca77));
}

/** Uniform in [0, 1). */
export function uniform(salt: number, index: number): number {
  return hashIndex(salt, index) / 4294967296;
}

/** Uniform with unit variance in [-√3, √3): value-noise grid values (the octave sum is near-Gaussian). */
export function centred(salt: number, index: number): number {
  return (uniform(salt, index) * 2 - 1) * 1.7320508075688772;
}

/** Standard normal (Box–Muller on two hashes), for the few places that need tails. */
export function gaussian(salt: number, index: number): number {
  const u1 = (hashIndex(salt, index) + 1) / 4294967297;
  const u2 = hashIndex(subSalt(salt, 7), index) / 4294967296;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
