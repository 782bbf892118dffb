import EthereumABI
import EthereumPrimitives
import TestSupport

/// Seeded random ABI types and values for round-trip and cross-implementation tests.
struct RandomABI {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func below(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// A random valid type; `depth` bounds nesting. Tuples are never empty (eth-abi refuses "()").
    mutating func type(depth: Int = 3) -> ABIType {
        let roll = below(100)
        if depth > 0 && roll < 14 {
            let element = type(depth: depth - 1)
            return .array(element, count: chance(50) ? nil : 1 + below(3))
        }
        if depth > 0 && roll < 24 {
            return .tuple((0..<(1 + below(4))).map { _ in type(depth: depth - 1) })
        }
        switch below(9) {
        case 0: return .uint(8 * (1 + below(32)))
        case 1: return .int(8 * (1 + below(32)))
        case 2: return .address
        case 3: return .bool
        case 4: return .fixedBytes(1 + below(32))
        case 5: return .bytes
        case 6: return .string
        case 7: return chance(50) ? .uint256 : .int256
        default: return .uint(8)
        }
    }

    mutating func uint256(bits: Int) -> UInt256 {
        switch below(6) {
        case 0: return .zero
        case 1: return bits == 256 ? .max : (UInt256.one << bits) - UInt256.one
        default:
            let width = 1 + below(bits)
            let raw = UInt256(limbs: (rng.next(), rng.next(), rng.next(), rng.next()))
            return width == 256 ? raw : raw & ((UInt256.one << width) - UInt256.one)
        }
    }

    mutating func value(for type: ABIType) -> ABIValue {
        switch type {
        case .uint(let bits):
            return .uint(uint256(bits: bits))
        case .int(let bits):
            let magnitude = uint256(bits: bits - 1)
            if chance(15) { return .int((UInt256.one << (bits - 1)).negated) }  // the minimum
            return .int(chance(50) ? magnitude.negated : magnitude)
        case .address:
            return .address(Address(bytes: rng.bytes(20)) ?? .zero)
        case .bool:
            return .bool(chance(50))
        case .fixedBytes(let n):
            return .fixedBytes(rng.bytes(n))
        case .function:
            return .fixedBytes(rng.bytes(24))
        case .bytes:
            let lengths = [0, 1, 31, 32, 33, 64, below(100)]
            return .bytes(rng.bytes(lengths[below(lengths.count)]))
        case .string:
            return .string(string())
        case .array(let element, let count):
            let n = count ?? below(4)
            return .array((0..<n).map { _ in value(for: element) })
        case .tuple(let components):
            return .tuple(components.map { value(for: $0) })
        }
    }

    mutating func string() -> String {
        let alphabet: [String] = ["a", "Z", "0", " ", "-", "\"", "\\", "\n", "é", "ü", "€", "✓", "𝄞", "😀", "中", "\u{0}", "\u{7f}"]
        var s = ""
        for _ in 0..<below(40) { s += alphabet[below(alphabet.count)] }
        return s
    }
}
