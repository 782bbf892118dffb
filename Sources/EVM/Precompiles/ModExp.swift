import CGMP
import EthereumPrimitives

/// MODEXP (0x05, EIP-198): `base ^ exponent mod modulus` on big integers. Input: the three lengths as
/// 32-byte words, then base, exponent and modulus, big-endian, zero-padded past the end of the input.
/// The output has the modulus's length (zeros for a zero modulus).
///
/// Gas is computed from the declared lengths and the exponent's first 32 bytes before anything is
/// allocated: EIP-198 before Berlin, EIP-2565 from Berlin, EIP-7883 from Osaka (which also caps each
/// length at 1024 bytes, EIP-7823). The arithmetic is GNU MP's `mpz_powm`.
enum ModExp {
    /// EIP-7823's limit on each length from Osaka.
    static let osakaLengthLimit = 1024

    static func run(input: [UInt8], gasLimit: UInt64, fork: Hardfork) -> PrecompileResult {
        let baseLength = PrecompileInput.word(input, at: 0)
        let exponentLength = PrecompileInput.word(input, at: 32)
        let modulusLength = PrecompileInput.word(input, at: 64)
        if fork >= .osaka {
            let limit = UInt256(UInt64(osakaLengthLimit))
            guard baseLength <= limit, exponentLength <= limit, modulusLength <= limit else { return .failure }
        }
        let head = exponentHead(input, baseLength: baseLength, exponentLength: exponentLength)
        let cost = gas(
            baseLength: baseLength, exponentLength: exponentLength, modulusLength: modulusLength,
            exponentHead: head, fork: fork)
        guard let gasUsed = cost.uint64, gasUsed <= gasLimit else { return .failure }
        // The cost bounds the base and modulus lengths, and the exponent's when the modulus is non-empty.
        guard !modulusLength.isZero else { return .success(gasUsed: gasUsed, output: []) }
        let b = baseLength.clampedInt, e = exponentLength.clampedInt, m = modulusLength.clampedInt
        let base = PrecompileInput.bytes(input, at: 96, count: b)
        let exponent = PrecompileInput.bytes(input, at: 96 &+ b, count: e)
        let modulus = PrecompileInput.bytes(input, at: 96 &+ b &+ e, count: m)
        return .success(gasUsed: gasUsed, output: modularExponentiation(base: base, exponent: exponent, modulus: modulus))
    }

    /// The exponent's first `min(exponentLength, 32)` bytes as an integer (EIP-198's `exponent head`).
    static func exponentHead(_ input: [UInt8], baseLength: UInt256, exponentLength: UInt256) -> UInt256 {
        let offset = baseLength.addingReportingOverflow(UInt256(96))
        guard !offset.overflow, let start = offset.partialValue.uint64, start < UInt64(input.count) else { return .zero }
        let count = min(exponentLength, UInt256(32)).clampedInt
        return UInt256(truncatingBigEndian: PrecompileInput.bytes(input, at: Int(start), count: count))
    }

    /// The gas cost under `fork`'s rules, exact (it may exceed any `UInt64`).
    static func gas(
        baseLength: UInt256, exponentLength: UInt256, modulusLength: UInt256, exponentHead: UInt256, fork: Hardfork
    ) -> UInt256 {
        let maxLength = max(baseLength, modulusLength)
        let minimum: UInt256 = fork >= .osaka ? 500 : fork >= .berlin ? 200 : 0
        // Lengths of 2^64 bytes or more cost more than any gas limit (each formula grows as length²).
        guard let x = maxLength.uint64 else { return .max }
        let complexity: UInt256
        if fork >= .osaka {
            // EIP-7883: at least 16, twice the squared word count above 32 bytes.
            let words = UInt256(x / 8 + (x % 8 == 0 ? 0 : 1))
            complexity = x <= 32 ? 16 : 2 * words * words
        } else if fork >= .berlin {
            // EIP-2565: the squared number of 64-bit words.
            let words = UInt256(x / 8 + (x % 8 == 0 ? 0 : 1))
            complexity = words * words
        } else {
            // EIP-198's piecewise approximation of Karatsuba multiplication.
            let big = UInt256(x)
            if x <= 64 {
                complexity = big * big
            } else if x <= 1024 {
                complexity = big * big / 4 + 96 * big - 3072
            } else {
                complexity = big * big / 16 + 480 * big - 199_680
            }
        }
        if complexity.isZero { return minimum }
        // Iteration count ("adjusted exponent length"): the exponent's bit length minus one, plus 8 (16
        // from Osaka) per byte beyond the first 32.
        guard exponentLength < UInt256(1) << 128 else { return .max }
        let headBits = UInt256(UInt64(max(exponentHead.significantBitCount - 1, 0)))
        var iterations: UInt256
        if exponentLength <= UInt256(32) {
            iterations = headBits
        } else {
            let perByte: UInt256 = fork >= .osaka ? 16 : 8
            iterations = perByte * (exponentLength - 32) + headBits
        }
        iterations = max(iterations, 1)
        let (product, overflow) = complexity.multipliedReportingOverflow(by: iterations)
        if overflow { return .max }
        let divisor: UInt256 = fork >= .osaka ? 1 : fork >= .berlin ? 3 : 20
        return max(product / divisor, minimum)
    }

    /// `base ^ exponent mod modulus`, big-endian, as `modulus.count` bytes (zeros for a zero modulus).
    static func modularExponentiation(base: [UInt8], exponent: [UInt8], modulus: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: modulus.count)
        guard modulus.contains(where: { $0 != 0 }) else { return output }
        var b = __mpz_struct(), e = __mpz_struct(), m = __mpz_struct(), r = __mpz_struct()
        __gmpz_init(&b)
        __gmpz_init(&e)
        __gmpz_init(&m)
        __gmpz_init(&r)
        defer {
            __gmpz_clear(&b)
            __gmpz_clear(&e)
            __gmpz_clear(&m)
            __gmpz_clear(&r)
        }
        func load(_ value: inout __mpz_struct, _ bytes: [UInt8]) {
            bytes.withUnsafeBytes { raw in
                if let pointer = raw.baseAddress {
                    // Most significant byte first, one-byte words.
                    __gmpz_import(&value, raw.count, 1, 1, 1, 0, pointer)
                }
            }
        }
        load(&b, base)
        load(&e, exponent)
        load(&m, modulus)
        __gmpz_powm(&r, &b, &e, &m)
        // powm's result is reduced (x^0 mod 1 is 0), so it fits in the modulus's length.
        if r._mp_size == 0 { return output }
        let size = (__gmpz_sizeinbase(&r, 2) + 7) / 8
        guard size <= modulus.count else { return output }
        output.withUnsafeMutableBytes { raw in
            var written = 0
            if let pointer = raw.baseAddress {
                _ = __gmpz_export(pointer + (modulus.count - size), &written, 1, 1, 1, 0, &r)
            }
        }
        return output
    }
}
