import EthereumPrimitives

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
        var random = SplitMix64(seed: 0x00C4_C4A1_2018)
        let letters = Array("BCDFGHJKLMNPRSTVWXYZ")
        while plates.count < count {
            var digits = ""
            var suffix = ""
            for _ in 0..<4 { digits += String(random.next() % 10) }
            for _ in 0..<3 { suffix.append(letters[Int(random.next() % UInt64(letters.count))]) }
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
}
