#ifndef CARCHAIN_KECCAK_MULTIWAY_H
#define CARCHAIN_KECCAK_MULTIWAY_H

#include <stddef.h>
#include <stdint.h>

/// The vector bodies of the permutation: four states in 256-bit registers (AVX2, or AVX-512VL with its rotate
/// instruction), or eight in 512-bit registers (AVX-512F).
enum {
    CARCHAIN_KECCAK_AVX2_X4 = 1,
    CARCHAIN_KECCAK_AVX512_X4 = 2,
    CARCHAIN_KECCAK_AVX512_X8 = 4,
};

/// The bodies this CPU runs, as a mask of the values above (0 on a CPU with none, or not x86-64). Checked once, with
/// CPUID and XGETBV (the operating system must save the registers).
int carchain_keccak_bodies(void);

/// Keccak-256 (Ethereum's: domain byte 0x01) of `count` messages side by side with `body` (one of the values above):
/// message `i` is `messages[i]` of `lengths[i]` bytes, and its 32-byte digest goes to `digests + 32 * i`. A lane that
/// finishes its message takes the next one, so messages of different lengths keep the lanes busy. Returns 0, or -1
/// (nothing written) when `body` is not one this CPU runs.
int carchain_keccak256_multiway(const uint8_t *const *messages, const size_t *lengths, size_t count, uint8_t *digests,
                                int body);

#endif
