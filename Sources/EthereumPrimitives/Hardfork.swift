/// Ethereum mainnet hard forks in activation order. Rules that change between forks (gas costs, opcodes,
/// transaction types, intrinsic gas) are looked up by fork, so one implementation serves every fork.
public enum Hardfork: Int, CaseIterable, Comparable, Sendable, CustomStringConvertible {
    case frontier
    case homestead
    /// EIP-150 gas repricing.
    case tangerineWhistle
    /// EIP-155/158/160/161/170.
    case spuriousDragon
    case byzantium
    case constantinople
    /// Constantinople without EIP-1283 ("ConstantinopleFix" in the test suites).
    case petersburg
    case istanbul
    /// EIP-2384 difficulty bomb delay only.
    case muirGlacier
    case berlin
    case london
    /// Difficulty bomb delays only.
    case arrowGlacier, grayGlacier
    /// The Merge ("Merge" in some test suites).
    case paris
    case shanghai
    case cancun
    case prague
    case osaka
    /// EIP-7892 blob-parameter-only forks: Osaka's rules with a larger blob schedule (mainnet: BPO1 10 / 15,
    /// BPO2 14 / 21 blobs).
    case bpo1, bpo2

    public static func < (a: Hardfork, b: Hardfork) -> Bool { a.rawValue < b.rawValue }

    /// The fork's usual name, as ethereum/tests writes it (e.g. "Cancun", "ConstantinopleFix" is Petersburg).
    public var name: String {
        switch self {
        case .frontier: return "Frontier"
        case .homestead: return "Homestead"
        case .tangerineWhistle: return "TangerineWhistle"
        case .spuriousDragon: return "SpuriousDragon"
        case .byzantium: return "Byzantium"
        case .constantinople: return "Constantinople"
        case .petersburg: return "Petersburg"
        case .istanbul: return "Istanbul"
        case .muirGlacier: return "MuirGlacier"
        case .berlin: return "Berlin"
        case .london: return "London"
        case .arrowGlacier: return "ArrowGlacier"
        case .grayGlacier: return "GrayGlacier"
        case .paris: return "Paris"
        case .shanghai: return "Shanghai"
        case .cancun: return "Cancun"
        case .prague: return "Prague"
        case .osaka: return "Osaka"
        case .bpo1: return "BPO1"
        case .bpo2: return "BPO2"
        }
    }

    public var description: String { name }

    /// Parses a fork name case-insensitively, including the test suites' aliases ("EIP150", "EIP158",
    /// "ConstantinopleFix", "Merge", "Petersburg").
    public init?(name: String) {
        let key = name.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" }
        switch key {
        case "eip150": self = .tangerineWhistle
        case "eip158": self = .spuriousDragon
        case "constantinoplefix": self = .petersburg
        case "merge", "themerge", "paris": self = .paris
        default:
            guard let fork = Hardfork.allCases.first(where: { $0.name.lowercased() == key }) else { return nil }
            self = fork
        }
    }

    /// True when this fork includes the rules of `fork` (i.e. is `fork` or later).
    @inlinable
    public func isAtLeast(_ fork: Hardfork) -> Bool { self >= fork }
}
