/// How much credit a user may buy at once, as the seed app allowed: a whole number from 1 to 999, typed as digits
/// only. `carchain credit add` and the web app's "buy credit" check it the same way.
public enum CreditAmount {
    /// The amounts accepted.
    public static let range: ClosedRange<UInt64> = 1...999

    /// The amount in `text` (digits only, within ``range``), nil otherwise.
    public static func parse(_ text: String) -> UInt64? {
        guard !text.isEmpty, text.utf8.count <= 3, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let n = UInt64(text),
            range.contains(n)
        else { return nil }
        return n
    }
}
