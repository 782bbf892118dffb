import ArgumentParser
import Chain
import EthereumPrimitives

/// A numeric option's documented range, checked at parse time (from `validate()`), so a value that parses but
/// makes no sense — NaN, infinity, 1e16 seconds, a nonce of 2^64−1 — is a one-line usage error (`carchain: …`,
/// exit 1) instead of a trap or a hang later. Every numeric option of the CLI (but `carchain node`'s own) has its
/// range in ``OptionRanges``, and its `--help` text quotes ``text``: one concept, one place.
struct OptionRange<Value: Comparable & Sendable>: Sendable {
    /// The option as typed, e.g. `--timeout`.
    let option: String
    /// The accepted values (a NaN is in no range: every comparison with it is false).
    let bounds: ClosedRange<Value>
    /// The range as the help text and the error say it, e.g. `0.001 to 86400 seconds`.
    let text: String

    init(_ option: String, _ bounds: ClosedRange<Value>, _ text: String) {
        self.option = option
        self.bounds = bounds
        self.text = text
    }

    /// Throws a usage error naming the option, its range and the value when `value` is outside the range.
    func check(_ value: Value) throws(ValidationError) {
        guard bounds.contains(value) else { throw ValidationError("\(option) must be \(text), got \(value)") }
    }

    /// As ``check(_:)``; an absent option passes.
    func check(_ value: Value?) throws(ValidationError) {
        if let value { try check(value) }
    }
}

/// An amount option (`--gas-price 2gwei`, `--value 1.5ether`, `--fund 1 ether`): parsed at parse time with the
/// project's exact unit parser (``Units``), so a malformed or out-of-range amount is a usage error too.
enum AmountOption {
    /// The range every amount has: what a 256-bit word holds.
    static let text = "0 to 2^256-1 wei; a number with a unit (20gwei, 1.5ether) or wei"

    /// Wei from `text` (`123`, `20gwei`, `1.5 ether`, and `0x…` when `hex` is allowed), or a usage error naming `option`.
    static func parse(_ text: String, option: String, hex: Bool = false) throws(ValidationError) -> UInt256 {
        do {
            if hex, Hex.hasPrefix(text) { return try UInt256(hex: text) }
            return try Units.parse(text)
        } catch {
            throw ValidationError("\(option) must be \(Self.text): \(error)")
        }
    }
}

/// The ranges of the CLI's numeric options. Chosen so that every later arithmetic on the value is safe (a
/// deadline in nanoseconds fits in 64 bits, a nonce can be incremented, a block number plus confirmations
/// cannot overflow) and wide enough for any real use.
enum OptionRanges {
    /// A day: the longest a single request or a wait for a receipt may sensibly take.
    static let maxSeconds = 86_400.0

    static let timeout = OptionRange("--timeout", 0.001...maxSeconds, "0.001 to 86400 seconds")
    static let receiptTimeout = OptionRange("--receipt-timeout", 0.001...maxSeconds, "0.001 to 86400 seconds")
    /// 10,000 blocks: more than a day of 12-second blocks.
    static let confirmations = OptionRange("--confirmations", UInt64(1)...10_000, "1 to 10000 blocks")

    /// EIP-2294's bound on chain ids, floor(2^64 / 2) − 36, so that an EIP-155 `v` (chainId·2 + 36) fits in 64 bits.
    static let maxChainID: UInt64 = ChainConfig.maxChainId
    static let chainID = OptionRange("--chain-id", UInt64(1)...maxChainID, "1 to \(maxChainID) (EIP-2294)")

    /// EIP-2681: a nonce is at most 2^64 − 2, so that the account's nonce can still be incremented.
    static let nonce = OptionRange("--nonce", UInt64(0)...(UInt64.max - 1), "0 to 2^64-2 (EIP-2681)")
    /// Gas is at most 2^63 − 1, the EVM's signed 64-bit gas counter; a transaction needs at least 21000.
    static let maxGas = UInt64(Int64.max)
    static let gasLimit = OptionRange("--gas-limit", UInt64(21_000)...maxGas, "21000 to 2^63-1")
    static let evmGas = OptionRange("--gas", UInt64(0)...maxGas, "0 to 2^63-1")

    /// BIP-32: a non-hardened index (and a hardened one before its bit 31 is set) is below 2^31.
    static let maxChildIndex: UInt32 = (1 << 31) - 1
    static let devAccount = OptionRange("--dev-account", UInt32(0)...maxChildIndex, "0 to 2147483647 (2^31-1)")
    static let walletIndex = OptionRange("--index", UInt32(0)...maxChildIndex, "0 to 2147483647 (2^31-1)")
    static let walletAccount = OptionRange("--account", UInt32(0)...maxChildIndex, "0 to 2147483647 (2^31-1)")

    static let bench = OptionRange("--bench", 1...1_000_000, "1 to 1000000 runs")
    static let jobs = OptionRange("--jobs", 1...256, "1 to 256")
    static let minPassRate = OptionRange("--min-pass-rate", 0.0...100.0, "0 to 100 (percent)")

    static let users = OptionRange("--users", 1...1_000, "1 to 1000")
    static let cars = OptionRange("--cars", 1...1_000, "1 to 1000")
    static let steps = OptionRange("--steps", 0...1_000_000, "0 to 1000000")
    /// `carchain simulate --spec`: random sequences, and steps in each at most.
    static let runs = OptionRange("--runs", 1...1_000_000, "1 to 1000000")
    static let depth = OptionRange("--depth", 1...100_000, "1 to 100000")

    /// `carchain watch`: events before exiting, and the polling period of an http:// node.
    static let watchCount = OptionRange("--count", UInt64(1)...UInt64.max, "1 to 2^64-1")
    static let pollInterval = OptionRange("--poll-interval", 0.01...3_600.0, "0.01 to 3600 seconds")
}
