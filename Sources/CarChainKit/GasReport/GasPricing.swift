import EthereumPrimitives

/// The prices a gas report's fees are computed at: a gas price in wei and, optionally, the price of one
/// ETH in a fiat currency (kept exactly, in millionths, so no fee is rounded through floating point).
public struct GasPricing: Sendable, Hashable {
    /// Wei per gas (`--gas-price`, default 1 gwei).
    public var gasPrice: UInt256
    /// The price of one ETH in millionths of the currency unit (3500.25 USD → 3_500_250_000); nil: no fiat column.
    public var ethPriceMicros: UInt256?
    /// The currency's code (`USD`).
    public var currency: String

    /// 1 gwei.
    public static let defaultGasPrice = UInt256(1_000_000_000 as UInt64)

    /// Creates a pricing.
    public init(gasPrice: UInt256 = GasPricing.defaultGasPrice, ethPriceMicros: UInt256? = nil, currency: String = "USD") {
        self.gasPrice = gasPrice
        self.ethPriceMicros = ethPriceMicros
        self.currency = currency
    }

    /// Parses a gas price with an optional unit (`1gwei`, `0.5 gwei`, `30000000000` wei) and an ETH
    /// price as a plain decimal (`3500`, `3500.25`, at most 6 decimal places).
    public init(gasPrice: String, ethPrice: String? = nil, currency: String = "USD") throws(GasPricingError) {
        do { self.gasPrice = try Units.parse(gasPrice) } catch { throw .invalidGasPrice(gasPrice, error.description) }
        self.currency = currency
        if let ethPrice {
            guard let micros = Self.parseMicros(ethPrice) else { throw .invalidEthPrice(ethPrice) }
            ethPriceMicros = micros
        } else {
            ethPriceMicros = nil
        }
    }

    /// `"3500.25"` → 3_500_250_000; nil for anything but digits with at most one point and 6 decimals.
    static func parseMicros(_ text: String) -> UInt256? {
        let parts = text.trimmingWhitespace().split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty || parts.count == 2 else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= 6, !(whole.isEmpty && fraction.isEmpty) else { return nil }
        let digits = String(whole) + String(fraction) + String(repeating: "0", count: 6 - fraction.count)
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 60 else { return nil }
        return try? UInt256(parsing: digits)
    }

    /// The fee for `gas`, in wei.
    public func feeWei(gas: UInt64) -> UInt256 { UInt256(gas) &* gasPrice }

    /// The fee for `gas` in ETH, exactly (`0.000040962`).
    public func feeEth(gas: UInt64) -> String { Units.format(feeWei(gas: gas), as: .ether) }

    /// The fee for `gas` in the fiat currency, rounded half up to 4 decimal places (`0.1434`); nil
    /// without an ETH price.
    public func feeFiat(gas: UInt64) -> String? {
        guard let ethPriceMicros else { return nil }
        // wei × micros / 10^18 = millionths of the currency; then round to ten-thousandths.
        let (product, overflow) = feeWei(gas: gas).multipliedReportingOverflow(by: ethPriceMicros)
        guard !overflow else { return nil }
        let micros = product / EtherUnit.ether.weiPerUnit
        let tenThousandths = (micros + UInt256(50)) / UInt256(100)
        let (whole, fraction) = tenThousandths.quotientAndRemainder(dividingBy: UInt256(10_000))
        let digits = fraction.description
        return "\(whole).\(String(repeating: "0", count: 4 - digits.count))\(digits)"
    }

    /// The gas price in gwei, exactly (`1`, `0.5`).
    public var gasPriceGwei: String { Units.format(gasPrice, as: .gwei) }

    /// The ETH price as a decimal (`3500.25`), if any.
    public var ethPrice: String? {
        guard let ethPriceMicros else { return nil }
        let (whole, fraction) = ethPriceMicros.quotientAndRemainder(dividingBy: UInt256(1_000_000))
        if fraction.isZero { return whole.description }
        var digits = fraction.description
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}

/// A price that does not parse.
public enum GasPricingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `--gas-price` is not an amount.
    case invalidGasPrice(String, String)
    /// `--eth-price` is not a decimal number.
    case invalidEthPrice(String)

    public var description: String {
        switch self {
        case .invalidGasPrice(let text, let why): return "invalid gas price \(JSONValue.quote(text)): \(why)"
        case .invalidEthPrice(let text):
            return "invalid ETH price \(JSONValue.quote(text)): expected a decimal number such as 3500 or 3500.25 (at most 6 decimals)"
        }
    }
}

extension String {
    /// The string without leading and trailing whitespace.
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}
