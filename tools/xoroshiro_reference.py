#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reference values for cusim's xoroshiro128p, from a plain-Python transcription of the algorithm
numba publishes in numba/cuda/random.py (SplitMix64 seeding, xoroshiro128+ with rotations 55/14/36,
the 2**64 jump polynomial, (x >> 11) * 2**-53 to float64, then rounding to float32, and Box-Muller
on two float32 uniforms keeping the cosine branch). tests/api/library.cu checks these numbers.

    python3 tools/xoroshiro_reference.py
"""
import math
import struct

MASK = (1 << 64) - 1
JUMP = (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922)


def splitmix64_state(seed):
    z = (seed + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    z ^= z >> 31
    return [z, z]


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK


def next_u64(s):
    s0, s1 = s
    result = (s0 + s1) & MASK
    s1 ^= s0
    s[0] = rotl(s0, 55) ^ s1 ^ ((s1 << 14) & MASK)
    s[1] = rotl(s1, 36)
    return result


def jump(s):
    t0 = t1 = 0
    for word in JUMP:
        for b in range(64):
            if word & (1 << b):
                t0 ^= s[0]
                t1 ^= s[1]
            next_u64(s)
    s[0], s[1] = t0, t1


def states(n, seed, subsequence_start=0):
    out = [splitmix64_state(seed)]
    for _ in range(subsequence_start):
        jump(out[0])
    for _ in range(1, n):
        s = list(out[-1])
        jump(s)
        out.append(s)
    return out


def to_float32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def uniform64(s):
    return (next_u64(s) >> 11) * (1.0 / (1 << 53))


def uniform32(s):
    return to_float32(uniform64(s))


def normal64(s):  # float32 uniforms, as numba's xoroshiro128p_normal_float64
    u1, u2 = uniform32(s), uniform32(s)
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2 * math.pi * u2)


def main():
    for i, (s0, s1) in enumerate(states(3, 42)):
        print(f"seed 42 state {i}: s0=0x{s0:016x} s1=0x{s1:016x}")
    s = states(2, 12345, subsequence_start=1)[1]
    print(f"seed 12345, subsequence_start 1, state 1: s0=0x{s[0]:016x} s1=0x{s[1]:016x}")
    for i, st in enumerate(states(3, 42)):
        print(f"seed 42 state {i} uniform_float32 x3:", ", ".join(repr(uniform32(st)) for _ in range(3)))
    st = states(1, 2024)[0]
    print("seed 2024 uniform_float64 x4:", ", ".join(repr(uniform64(st)) for _ in range(4)))
    st = states(1, 2024)[0]
    print("seed 2024 normal (float64 maths on float32 uniforms) x4:", ", ".join(repr(normal64(st)) for _ in range(4)))


if __name__ == "__main__":
    main()
