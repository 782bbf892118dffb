import CarChain
import CarChainKit
import EthereumPrimitives
import Foundation
import Testing

/// Plates, positions and distances, and the fleet registry file.
@Suite struct FleetTests {
    @Test func spanishPlates() throws {
        let format = PlateFormat.spanish
        for plate in ["6789BBB", "2353HYP", "0000AAA", "9999ZZZ"] { #expect(format.isValid(plate), "\(plate)") }
        for plate in ["", "678BBB", "6789BB", "6789BBBB", "6789bbb", "ABCD123", "6789B1B", "6789ÉBB", "６７８９BBB", " 6789BBB", "6789BBB "] {
            #expect(!format.isValid(plate), "\(plate)")
        }
        #expect(throws: FleetError.invalidPlate("BAD1", format: .spanish)) { try format.validate("BAD1") }
        #expect(FleetError.invalidPlate("BAD1", format: .spanish).description.contains("6789BBB"))
        // `any` leaves the decision to the contract.
        for plate in ["", "-", "CAR-1", String(repeating: "P", count: 40)] { #expect(PlateFormat.any.isValid(plate)) }
    }

    @Test func parsingPositionsAndDistances() throws {
        #expect(try GeoPoint(parsing: "40.4168,-3.7038") == GeoPoint(latitude: 40.4168, longitude: -3.7038))
        #expect(try GeoPoint(parsing: " 40.4168 , -3.7038 ") == GeoPoint(latitude: 40.4168, longitude: -3.7038))
        for bad in ["", "40.4168", "40.4168;-3.7038", "91,0", "86,0", "0,181", "a,b", "nan,0", "inf,0", "1,2,3"] {
            #expect(throws: FleetError.invalidCoordinate(bad)) { try GeoPoint(parsing: bad) }
        }
        #expect(try Distance.parse("2km") == 2000)
        #expect(try Distance.parse("1.5 km") == 1500)
        #expect(try Distance.parse("500m") == 500)
        #expect(try Distance.parse("750") == 750)
        for bad in ["", "km", "-1km", "0m", "two km", "5 miles"] {
            #expect(throws: FleetError.invalidDistance(bad)) { try Distance.parse(bad) }
        }
        #expect(Distance.format(349.6) == "350 m")
        #expect(Distance.format(2000) == "2 km")
        #expect(Distance.format(1250) == "1.25 km")
    }

    /// Haversine against known great-circle distances (same 6371.0088 km sphere).
    @Test func haversine() {
        let sol = GeoPoint.puertaDelSol
        #expect(sol.distance(to: sol) == 0)
        // One degree of latitude on this sphere: 2πR/360 = 111,195.08 m.
        let oneDegree = GeoPoint(latitude: 0, longitude: 0).distance(to: GeoPoint(latitude: 1, longitude: 0))
        #expect(abs(oneDegree - 111_195.08) < 0.01)
        // Madrid (Sol) to Barcelona (Plaça de Catalunya, 41.3870, 2.1700): about 505 km.
        let barcelona = GeoPoint(latitude: 41.3870, longitude: 2.1700)
        let d = sol.distance(to: barcelona)
        #expect(d > 503_000 && d < 507_000, "\(d)")
        #expect(abs(d - barcelona.distance(to: sol)) < 1e-6)
        // Antipodes: half the circumference.
        let half = GeoPoint(latitude: 0, longitude: 0).distance(to: GeoPoint(latitude: 0, longitude: 180))
        #expect(abs(half - .pi * GeoPoint.earthRadius) < 0.01)
        // moved(metres:bearing:) is the inverse of distance.
        for bearing in stride(from: 0.0, to: 360, by: 45) {
            let p = sol.moved(metres: 1234, bearing: bearing)
            #expect(abs(p.distance(to: sol) - 1234) < 0.001, "bearing \(bearing)")
        }
        #expect(sol.moved(metres: 1000, bearing: 0).latitude > sol.latitude)
        #expect(sol.moved(metres: 1000, bearing: 90).longitude > sol.longitude)
    }

    @Test func registryPlacesMovesAndPersists() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let registry = FleetRegistry(directory: directory.path)
        #expect(try registry.cars().isEmpty)
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        try registry.place("6789BBB", at: GeoPoint(latitude: 40.4170, longitude: -3.7040), time: t0)
        try registry.place("2353HYP", at: GeoPoint(latitude: 40.4190, longitude: -3.7000), time: t0)
        #expect(try registry.cars().map(\.plate) == ["2353HYP", "6789BBB"])
        let moved = try registry.move("6789BBB", to: GeoPoint(latitude: 40.4180, longitude: -3.7050), time: t0.addingTimeInterval(60))
        #expect(moved.position == GeoPoint(latitude: 40.4180, longitude: -3.7050))
        #expect(throws: FleetError.unknownPlate("0000XXX")) { try registry.move("0000XXX", to: .puertaDelSol) }
        #expect(throws: FleetError.self) { try registry.place("1111BBB", at: GeoPoint(latitude: 95, longitude: 0)) }
        // A second registry on the same file reads what the first wrote (times to the second).
        let reread = try #require(try FleetRegistry(path: registry.path).car("6789BBB"))
        #expect(reread.latitude == 40.4180 && reread.longitude == -3.7050)
        #expect(reread.updatedAt == t0.addingTimeInterval(60))
        #expect(try FleetRegistry(path: registry.path).cars().count == 2)
        // No temporary files are left next to it (atomic replacement).
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [FleetRegistry.fileName])
        // A corrupt file is reported, not ignored.
        try Data("not json".utf8).write(to: URL(fileURLWithPath: registry.path))
        #expect(throws: FleetError.self) { try registry.cars() }
    }

    @Test func listingSortsByDistanceAndFilters() {
        let t = Date(timeIntervalSince1970: 0)
        let near = GeoPoint.puertaDelSol
        let cars = [
            FleetCar(plate: "1000AAA", position: near.moved(metres: 900, bearing: 0), updatedAt: t),
            FleetCar(plate: "2000BBB", position: near.moved(metres: 100, bearing: 90), updatedAt: t),
            FleetCar(plate: "3000CCC", position: near.moved(metres: 300, bearing: 180), updatedAt: t),
            FleetCar(plate: "4000DDD", position: near.moved(metres: 3000, bearing: 270), updatedAt: t),
            FleetCar(plate: "5000FFF", position: near.moved(metres: 50, bearing: 270), updatedAt: t),
        ]
        let availability: [String: CarAvailability] = [
            "1000AAA": .available, "2000BBB": .available, "3000CCC": .rented(by: "uid"), "4000DDD": .available,
        ]
        let rows = FleetListing.select(cars, availability: availability, near: near, radius: 1000, all: false)
        #expect(rows.map(\.car.plate) == ["2000BBB", "1000AAA"])
        let all = FleetListing.select(cars, availability: availability, near: near, radius: 1000, all: true)
        #expect(all.map(\.car.plate) == ["5000FFF", "2000BBB", "3000CCC", "1000AAA", "4000DDD"])
        #expect(all.first?.availability == .notOnChain)
        let wide = FleetListing.select(cars, availability: availability, near: near, radius: 5000, all: false)
        #expect(wide.map(\.car.plate) == ["2000BBB", "1000AAA", "4000DDD"])
        let noReference = FleetListing.select(cars, availability: availability, near: nil, radius: nil, all: false)
        #expect(noReference.map(\.car.plate) == ["1000AAA", "2000BBB", "4000DDD"])
        #expect(noReference.allSatisfy { $0.distance == nil })
        #expect(CarAvailability(CarInfo(registered: true, renter: "")) == .available)
        #expect(CarAvailability(CarInfo(registered: true, renter: "u")) == .rented(by: "u"))
        #expect(CarAvailability(CarInfo(registered: false, renter: "")) == .notOnChain)
    }

    @Test func demoFleetIsDeterministicAndValid() {
        let plates = DemoFleet.plates
        #expect(plates.count == 18)
        #expect(Array(plates.prefix(3)) == ["6789BBB", "2353HYP", "5432TPK"])
        #expect(Set(plates).count == 18)
        #expect(plates.allSatisfy(PlateFormat.spanish.isValid))
        #expect(DemoFleet.plates == plates)
        let distances = (0..<18).map { DemoFleet.position(index: $0).distance(to: .puertaDelSol) }
        #expect(distances.allSatisfy { $0 > 100 && $0 < 500 })
        #expect(distances == distances.sorted())
        #expect(DemoFleet.position(index: 7) == DemoFleet.position(index: 7))
    }

    @Test func historyFromEvents() {
        let u = "O6fLnMnVXAUWmxdIYatVNzaE31i1"
        let events: [(CarChainEvent, UInt64)] = [
            (.userRegistered(userId: u, account: .zero), 2),
            (.carRegistered(plate: "6789BBB"), 3),
            (.creditAdded(userId: u, amount: 10, newBalance: 10), 4),
            (.creditAdded(userId: "other", amount: 5, newBalance: 5), 4),
            (.carRented(plate: "6789BBB", userId: u), 5),
            (.carRented(plate: "2353HYP", userId: "other"), 6),
            (.carReturned(plate: "6789BBB", userId: u), 7),
            (.carRented(plate: "6789BBB", userId: u), 8),
            (.creditAdded(userId: u, amount: 3, newBalance: 11), 9),
        ]
        let history = UserHistory(userId: u, events: events.map { RecordedCarChainEvent(event: $0.0, blockNumber: $0.1, transactionHash: nil) })
        #expect(history.registeredAt == 2)
        #expect(history.rentals.map(\.plate) == ["6789BBB", "6789BBB"])
        #expect(history.rentals.map(\.rentedAt) == [5, 8])
        #expect(history.rentals.map(\.returnedAt) == [7, nil])
        #expect(history.topUps.map(\.amount) == [10, 3])
        #expect(history.topUps.map(\.newBalance) == [10, 11])
        #expect(UserHistory(userId: "nobody", events: []).rentals.isEmpty)
    }
}
