/// How plates are checked before they reach the contract. The seed app accepted Spanish plates only: four
/// digits then three capital letters (`6789BBB`); `any` leaves the decision to the contract (1 to 31 bytes,
/// not `"-"`), whose refusal then names the rule.
public enum PlateFormat: String, Sendable, Hashable, CaseIterable {
    /// Four ASCII digits followed by three ASCII capital letters.
    case spanish
    /// No check here: the contract refuses what it does not accept.
    case any

    /// What a valid plate looks like, for error messages.
    public var requirement: String {
        switch self {
        case .spanish: return "expected four digits and three capital letters, e.g. 6789BBB (or --plate-format any)"
        case .any: return "any text (the contract checks it)"
        }
    }

    /// Returns `plate` when it is valid in this format, else throws ``FleetError/invalidPlate(_:format:)``.
    @discardableResult
    public func validate(_ plate: String) throws(FleetError) -> String {
        guard isValid(plate) else { throw .invalidPlate(plate, format: self) }
        return plate
    }

    /// Whether `plate` is valid in this format.
    public func isValid(_ plate: String) -> Bool {
        let bytes = Array(plate.utf8)
        switch self {
        case .spanish:
            guard bytes.count == 7 else { return false }
            return bytes[0..<4].allSatisfy { (0x30...0x39).contains($0) } && bytes[4..<7].allSatisfy { (0x41...0x5A).contains($0) }
        case .any:
            return true
        }
    }
}
