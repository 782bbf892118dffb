// TEMPORARY stand-in for Sources/EVM/Precompiles/Precompiles.swift (branch h-precompiles), with the
// agreed API. Only the identity precompile is implemented; every other precompile reports
// `.unsupported`, so the cases that reach them are skipped, never passed. Delete this file when the
// real precompiles are merged from main.
import EthereumPrimitives

/// The result of running a precompiled contract.
public enum PrecompileResult: Sendable, Equatable {
    /// Success: the gas used and the output.
    case success(gasUsed: UInt64, output: [UInt8])
    /// Failure: consumes all gas given to the call.
    case failure
    /// No sound implementation in this build; the caller reports the case as skipped.
    case unsupported(reason: String)
}

/// The precompiled contracts per fork.
public enum Precompiles {
    /// True when `address` is a precompiled contract in `fork`.
    public static func isPrecompile(_ address: Address, fork: Hardfork) -> Bool {
        let bytes = address.bytes
        guard bytes[0..<18].allSatisfy({ $0 == 0 }), bytes[18] == 0 else { return false }
        let n = Int(bytes[19])
        return n >= 1 && n <= count(for: fork)
    }

    /// The precompiled contracts' addresses in `fork`.
    public static func addresses(for fork: Hardfork) -> [Address] {
        (0..<count(for: fork)).map { i in
            var bytes = [UInt8](repeating: 0, count: 20)
            bytes[19] = UInt8(i + 1)
            return Address(bytes: bytes) ?? .zero
        }
    }

    /// Runs the precompile at `address`.
    public static func run(_ address: Address, input: [UInt8], gasLimit: UInt64, fork: Hardfork) -> PrecompileResult {
        let n = address.bytes[19]
        switch n {
        case 4:
            let cost = 15 + 3 * UInt64((input.count + 31) / 32)
            return cost <= gasLimit ? .success(gasUsed: cost, output: input) : .failure
        default:
            return .unsupported(reason: "precompile 0x\(String(n, radix: 16)) not in the stand-in")
        }
    }

    private static func count(for fork: Hardfork) -> Int {
        switch fork {
        case .frontier, .homestead, .tangerineWhistle, .spuriousDragon: return 4
        case .byzantium, .constantinople, .petersburg: return 8
        case .istanbul, .muirGlacier, .berlin, .london, .arrowGlacier, .grayGlacier, .paris, .shanghai: return 9
        case .cancun: return 10
        case .prague, .osaka: return 17
        }
    }
}
