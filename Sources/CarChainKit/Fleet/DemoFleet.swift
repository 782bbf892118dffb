/// The demo's fleet: 18 cars, as the seed app drew, with the plates of the seed's scenario first
/// (6789BBB, 2353HYP, 5432TPK) and 15 more generated from a fixed seed, placed on a sunflower spiral around
/// Puerta del Sol (golden-angle bearings, distance growing with the square root of the index) so they spread
/// evenly between about 100 m and 500 m. The same every run.
public enum DemoFleet {
    /// The number of cars, as in the seed app.
    public static let count = 18
    /// The plates the seed's contract scenario used (contracts/README.md, ../shared/seed-carchain).
    public static let seedPlates = ["6789BBB", "2353HYP", "5432TPK"]

    /// The 18 plates: the seed's three, then generated ones (four digits, three consonants as Spanish plates
    /// use), all distinct.
    public static var plates: [String] {
        var plates = seedPlates
        var state: UInt64 = 0x00C4_C4A1_2018
        let letters = Array("BCDFGHJKLMNPRSTVWXYZ")
        while plates.count < count {
            var digits = ""
            var suffix = ""
            for _ in 0..<4 { digits += String(next(&state) % 10) }
            for _ in 0..<3 { suffix.append(letters[Int(next(&state) % UInt64(letters.count))]) }
            let plate = digits + suffix
            if !plates.contains(plate) { plates.append(plate) }
        }
        return plates
    }

    /// Car `index`'s position around `center`.
    public static func position(index: Int, around center: GeoPoint = .puertaDelSol) -> GeoPoint {
        let bearing = Double(index) * 137.50776405
        let metres = 110 * Double(index + 1).squareRoot()
        return center.moved(metres: metres, bearing: bearing)
    }

    /// SplitMix64: a tiny, well-mixed deterministic generator.
    private static func next(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
