/// A BIP-32 derivation path such as `m/44'/60'/0'/0/0`: child indices from the master key, hardened ones
/// (written with `'` or `h`/`H`) having bit 31 set.
public struct DerivationPath: Sendable, Hashable, CustomStringConvertible {
    /// Bit 31: a hardened child index.
    public static let hardenedBit: UInt32 = 0x8000_0000

    /// The child indices, hardened ones with ``hardenedBit`` set.
    public var indices: [UInt32]

    /// A path from explicit indices.
    public init(indices: [UInt32]) { self.indices = indices }

    /// Parses `m/…` (or a path without the leading `m`): each component a decimal below 2^31, optionally
    /// followed by `'`, `h` or `H` for hardened.
    public init(_ text: String) throws(HDWalletError) {
        var parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.first == "m" || parts.first == "M" { parts.removeFirst() }
        if parts == [""] { parts = [] }
        var indices: [UInt32] = []
        for (i, part) in parts.enumerated() {
            var digits = Substring(part)
            var hardened = false
            if let last = digits.last, last == "'" || last == "h" || last == "H" {
                hardened = true
                digits = digits.dropLast()
            }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt32(digits),
                value < Self.hardenedBit
            else {
                throw .invalidPath("component \(i + 1) (\(String(reflecting: part))) is not an index below 2^31 with optional '")
            }
            indices.append(hardened ? value | Self.hardenedBit : value)
        }
        self.indices = indices
    }

    /// BIP-44 for Ethereum (coin type 60): `m/44'/60'/account'/change/index`.
    public static func ethereum(account: UInt32 = 0, change: UInt32 = 0, index: UInt32) -> DerivationPath {
        DerivationPath(indices: [44 | hardenedBit, 60 | hardenedBit, account | hardenedBit, change, index])
    }

    /// `m/44'/60'/0'/0/…` as written (hardened components with `'`).
    public var description: String {
        (["m"] + indices.map { $0 >= Self.hardenedBit ? "\($0 & ~Self.hardenedBit)'" : "\($0)" }).joined(separator: "/")
    }
}
