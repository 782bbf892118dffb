// Keccak-f[1600] on 4 or 8 states at once (FIPS 202, section 3.3), one state per vector lane, and the Keccak-256
// sponge over several messages. Compiled for generic x86-64 like the rest of the package; the vector bodies carry
// their own target attributes and are only called after carchain_keccak_bodies() has checked the CPU.
#include "keccak_multiway.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define CARCHAIN_KECCAK_X86 1
#include <cpuid.h>
#endif

enum { RATE = 136, RATE_WORDS = 17 };

static const uint64_t round_constants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
    0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

#ifdef CARCHAIN_KECCAK_X86

typedef uint64_t v4u64 __attribute__((vector_size(32), aligned(32)));
typedef uint64_t v8u64 __attribute__((vector_size(64), aligned(64)));

#define ROL(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

// One round on lanes a[x + 5y] (theta, rho and pi into b, chi back into a, iota). The rotation offsets are rho's
// (FIPS 202, table 2) and b's indices pi's: b[y + 5 * ((2x + 3y) mod 5)] = rotl(a[x + 5y] ^ d[x], r[x, y]).
#define KECCAK_ROUND(V, a, rc)                                                                                        \
    do {                                                                                                              \
        V c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20], c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];                         \
        V c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22], c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];                         \
        V c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];                                                                   \
        V d0 = c4 ^ ROL(c1, 1), d1 = c0 ^ ROL(c2, 1), d2 = c1 ^ ROL(c3, 1), d3 = c2 ^ ROL(c4, 1), d4 = c3 ^ ROL(c0, 1); \
        V b00 = a[0] ^ d0, b10 = ROL(a[1] ^ d1, 1), b20 = ROL(a[2] ^ d2, 62), b05 = ROL(a[3] ^ d3, 28);               \
        V b15 = ROL(a[4] ^ d4, 27), b16 = ROL(a[5] ^ d0, 36), b01 = ROL(a[6] ^ d1, 44), b11 = ROL(a[7] ^ d2, 6);        \
        V b21 = ROL(a[8] ^ d3, 55), b06 = ROL(a[9] ^ d4, 20), b07 = ROL(a[10] ^ d0, 3), b17 = ROL(a[11] ^ d1, 10);      \
        V b02 = ROL(a[12] ^ d2, 43), b12 = ROL(a[13] ^ d3, 25), b22 = ROL(a[14] ^ d4, 39), b23 = ROL(a[15] ^ d0, 41);  \
        V b08 = ROL(a[16] ^ d1, 45), b18 = ROL(a[17] ^ d2, 15), b03 = ROL(a[18] ^ d3, 21), b13 = ROL(a[19] ^ d4, 8);   \
        V b14 = ROL(a[20] ^ d0, 18), b24 = ROL(a[21] ^ d1, 2), b09 = ROL(a[22] ^ d2, 61), b19 = ROL(a[23] ^ d3, 56);   \
        V b04 = ROL(a[24] ^ d4, 14);                                                                                  \
        a[0] = b00 ^ (~b01 & b02) ^ (rc);                                                                           \
        a[1] = b01 ^ (~b02 & b03), a[2] = b02 ^ (~b03 & b04), a[3] = b03 ^ (~b04 & b00), a[4] = b04 ^ (~b00 & b01);     \
        a[5] = b05 ^ (~b06 & b07), a[6] = b06 ^ (~b07 & b08), a[7] = b07 ^ (~b08 & b09);                              \
        a[8] = b08 ^ (~b09 & b05), a[9] = b09 ^ (~b05 & b06);                                                         \
        a[10] = b10 ^ (~b11 & b12), a[11] = b11 ^ (~b12 & b13), a[12] = b12 ^ (~b13 & b14);                           \
        a[13] = b13 ^ (~b14 & b10), a[14] = b14 ^ (~b10 & b11);                                                       \
        a[15] = b15 ^ (~b16 & b17), a[16] = b16 ^ (~b17 & b18), a[17] = b17 ^ (~b18 & b19);                           \
        a[18] = b18 ^ (~b19 & b15), a[19] = b19 ^ (~b15 & b16);                                                       \
        a[20] = b20 ^ (~b21 & b22), a[21] = b21 ^ (~b22 & b23), a[22] = b22 ^ (~b23 & b24);                           \
        a[23] = b23 ^ (~b24 & b20), a[24] = b24 ^ (~b20 & b21);                                                       \
    } while (0)

// The permutation on `ways` states held lane-interleaved: word w of state s is at index w * ways + s.
#define DEFINE_PERMUTE(name, V, isa)                                                                           \
    __attribute__((target(isa))) static void name(uint64_t *words) {                                           \
        V a[25];                                                                                                  \
        memcpy(a, words, sizeof a);                                                                               \
        for (int round = 0; round < 24; round++) KECCAK_ROUND(V, a, round_constants[round]);                      \
        memcpy(words, a, sizeof a);                                                                               \
    }

DEFINE_PERMUTE(permute8_avx512, v8u64, "avx512f")
DEFINE_PERMUTE(permute4_avx512, v4u64, "avx512f,avx512vl")
DEFINE_PERMUTE(permute4_avx2, v4u64, "avx2")

static int cpu_bodies = -1;

static uint64_t xgetbv0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static int detect(void) {
    unsigned eax, ebx, ecx, edx;
    int bodies = 0;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 27)) && (ecx & (1u << 28))) {  // OSXSAVE, AVX
        uint64_t xcr0 = xgetbv0();
        unsigned a7, b7, c7, d7;
        if (__get_cpuid_count(7, 0, &a7, &b7, &c7, &d7)) {
            int ymm = (xcr0 & 0x6) == 0x6;           // SSE and AVX state saved
            int zmm = ymm && (xcr0 & 0xE0) == 0xE0;  // and the three AVX-512 components
            if (ymm && (b7 & (1u << 5))) bodies |= CARCHAIN_KECCAK_AVX2_X4;
            if (zmm && (b7 & (1u << 16))) bodies |= CARCHAIN_KECCAK_AVX512_X8;
            if (zmm && (b7 & (1u << 16)) && (b7 & (1u << 31))) bodies |= CARCHAIN_KECCAK_AVX512_X4;  // and VL
        }
    }
    return bodies;
}

int carchain_keccak_bodies(void) {
    int bodies = __atomic_load_n(&cpu_bodies, __ATOMIC_RELAXED);
    if (bodies < 0) {
        bodies = detect();  // racing first calls store the same answer
        __atomic_store_n(&cpu_bodies, bodies, __ATOMIC_RELAXED);
    }
    return bodies;
}

static inline uint64_t load64le(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;  // x86-64 is little-endian, the sponge's byte order
}

int carchain_keccak256_multiway(const uint8_t *const *messages, const size_t *lengths, size_t count, uint8_t *digests,
                                int body) {
    if ((body != CARCHAIN_KECCAK_AVX2_X4 && body != CARCHAIN_KECCAK_AVX512_X4 && body != CARCHAIN_KECCAK_AVX512_X8) ||
        !(carchain_keccak_bodies() & body))
        return -1;
    int ways = body == CARCHAIN_KECCAK_AVX512_X8 ? 8 : 4;
    void (*permute)(uint64_t *) =
        body == CARCHAIN_KECCAK_AVX512_X8 ? permute8_avx512 : (body == CARCHAIN_KECCAK_AVX512_X4 ? permute4_avx512 : permute4_avx2);
    uint64_t words[25 * 8] __attribute__((aligned(64)));
    size_t job[8];        // the message each lane absorbs
    size_t offset[8];     // bytes of it absorbed so far
    int active[8];
    size_t next = 0;
    memset(words, 0, sizeof words);
    for (int lane = 0; lane < ways; lane++) {
        active[lane] = next < count;
        job[lane] = next++;
        offset[lane] = 0;
    }
    int busy = count < (size_t)ways ? (int)count : ways;
    while (busy > 0) {
        int finishing[8] = {0};
        for (int lane = 0; lane < ways; lane++) {
            if (!active[lane]) continue;
            const uint8_t *message = messages[job[lane]];
            size_t left = lengths[job[lane]] - offset[lane];
            uint8_t padded[RATE];
            const uint8_t *block = message + offset[lane];
            if (left >= RATE) {
                offset[lane] += RATE;
            } else {
                // The last block: the rest of the message, then pad10*1 with Keccak's domain byte.
                memset(padded, 0, RATE);
                if (left > 0) memcpy(padded, block, left);
                padded[left] ^= 0x01;
                padded[RATE - 1] ^= 0x80;
                block = padded;
                finishing[lane] = 1;
            }
            for (int w = 0; w < RATE_WORDS; w++) words[w * ways + lane] ^= load64le(block + 8 * w);
        }
        permute(words);
        for (int lane = 0; lane < ways; lane++) {
            if (!finishing[lane]) continue;
            uint8_t *digest = digests + 32 * job[lane];
            for (int w = 0; w < 4; w++) memcpy(digest + 8 * w, &words[w * ways + lane], 8);
            for (int w = 0; w < 25; w++) words[w * ways + lane] = 0;
            if (next < count) {
                job[lane] = next++;
                offset[lane] = 0;
            } else {
                active[lane] = 0;
                busy--;
            }
        }
    }
    return 0;
}

#else

int carchain_keccak_bodies(void) { return 0; }

int carchain_keccak256_multiway(const uint8_t *const *messages, const size_t *lengths, size_t count, uint8_t *digests,
                                int body) {
    (void)messages, (void)lengths, (void)count, (void)digests, (void)body;
    return -1;
}

#endif
