/// Comparisons whose running time does not depend on where two secrets first differ.
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes. The time taken depends only on the lengths, never on the
    /// contents, so a caller cannot learn a stored hash or token one byte at a time.
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) {
            difference |= x ^ y
        }
        return difference == 0
    }
}
