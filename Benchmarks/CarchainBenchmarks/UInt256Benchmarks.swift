// UInt256 micro-benchmarks: the EVM's arithmetic hot paths.
//
// Each benchmark runs 1,000 operations per iteration (scalingFactor .kilo), so figures read as time per
// operation. Operands come from fixed tables built before measuring, cycled by index, so the
// compiler cannot fold them and the branch predictor does not see one repeated input.

import Benchmark
import EthereumPrimitives

/// Reproducible operands from the project's seeded generator.
extension SplitMix64 {
    /// A value with exactly `bits` significant bits (1...256).
    fileprivate mutating func value(bits: Int) -> UInt256 {
        let v = UInt256(limbs: (next(), next(), next(), next())) >> (256 - bits)
        return v | (UInt256.one << (bits - 1))
    }

    /// A value with a random number of significant bits in `range`.
    fileprivate mutating func value(bitsIn range: ClosedRange<Int>) -> UInt256 {
        value(bits: range.lowerBound + Int(next() % UInt64(range.count)))
    }
}

private let tableSize = 1024
private let tableMask = tableSize - 1

private func table(seed: UInt64, _ make: (inout SplitMix64) -> UInt256) -> [UInt256] {
    var gen = SplitMix64(seed: seed)
    return (0..<tableSize).map { _ in make(&gen) }
}

func registerUInt256Benchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 100_000
    )

    let full1 = table(seed: 1) { $0.value(bits: 256) }
    let full2 = table(seed: 2) { $0.value(bits: 256) }
    let full3 = table(seed: 3) { $0.value(bits: 256) }
    let word = table(seed: 4) { $0.value(bitsIn: 1...64) }
    let wide = table(seed: 5) { $0.value(bitsIn: 65...255) }
    let wordExponents = table(seed: 6) { $0.value(bitsIn: 1...16) }
    let anyWidth = table(seed: 7) { $0.value(bitsIn: 1...256) }
    let small1 = table(seed: 8) { $0.value(bitsIn: 1...64) }
    let small2 = table(seed: 9) { $0.value(bitsIn: 1...32) }
    let mid1 = table(seed: 10) { $0.value(bitsIn: 65...128) }

    Benchmark("UInt256 add (&+)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i] &+ full2[i])
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 sub (&-)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i] &- full2[i])
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 mul (&*)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i] &* full2[i])
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 div 64/32 (small operands)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(small1[i] / small2[i])
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 div 128/64", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(mid1[i] / small1[i])
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 div 256/64", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i] / word[i])
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 div 256/256 (65-255-bit divisor)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i] / wide[i])
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 mod 256/256 (65-255-bit divisor)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i] % wide[i])
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 sdiv", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i].sdiv(wide[i]))
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 shl (0-255 bits)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i].shl(UInt256(anyWidth[i].low64 & 255)))
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 sar (0-255 bits)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i].sar(UInt256(anyWidth[i].low64 & 255)))
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 exp (16-bit exponent)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i].exp(wordExponents[i]))
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 exp (256-bit exponent)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i].exp(full2[i]))
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 compare (<)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i] < full2[i])
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 addmod", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(UInt256.addmod(full1[i], full2[i], full3[i]))
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 mulmod (256-bit modulus)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(UInt256.mulmod(full1[i], full2[i], full3[i]))
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 mulmod (65-255-bit modulus)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(UInt256.mulmod(full1[i], full2[i], wide[i]))
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 decimal description (78 digits)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i].description)
            i = (i &+ 1) & tableMask
        }
    }

    let texts = full1.map(\.description)
    Benchmark("UInt256 decimal parse (78 digits)", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(try? UInt256(decimal: texts[i]))
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 hexString", configuration: configuration) { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(full1[i].hexString)
            i = (i &+ 1) & tableMask
        }
    }

    Benchmark("UInt256 MSTORE+MLOAD (raw pointer)", configuration: configuration) { benchmark in
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        defer { memory.deallocate() }
        var i = 0
        for _ in benchmark.scaledIterations {
            full1[i].storeBigEndian(to: memory + (i & 31))
            blackHole(UInt256(bigEndianAt: memory + (i & 31)))
            i = (i &+ 1) & tableMask
        }
    }
}
