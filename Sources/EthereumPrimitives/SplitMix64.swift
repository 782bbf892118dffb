/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014): a tiny generator whose
/// whole state is one 64-bit word, so a seed alone fixes every choice on every machine (Foundation's and the system's
/// generators promise no such thing). The project's one seeded generator: simulations, invariant runs (as the seeder
/// of PropertyBased's xoshiro256**), the demo fleet, randomized tests and benchmark operands.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The current state.
    public private(set) var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0 ..< bound`, by rejection so every value is equally likely; 0 when `bound` is not positive.
    public mutating func below(_ bound: Int) -> Int {
        guard bound > 0 else { return 0 }
        let n = UInt64(bound)
        let limit = UInt64.max - UInt64.max % n
        while true {
            let x = next()
            if x < limit { return Int(x % n) }
        }
    }

    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// `count` pseudo-random bytes (the low byte of one output each).
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<max(count, 0)).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}
