import CarChain
import EthereumPrimitives
import Foundation

/// The fleet's chain reads and map writing (`carchain cars`, `map`, `demo`, and an app's map view).
public enum FleetChain {
    /// Each car's availability from the contract's `getCar`.
    public static func availability(of cars: [FleetCar], contract: CarChainContract) async throws -> [String: CarAvailability] {
        var out: [String: CarAvailability] = [:]
        for car in cars { out[car.plate] = CarAvailability(try await contract.getCar(car.plate)) }
        return out
    }

    /// What a written map shows.
    public struct MapResult: Sendable {
        public var path: String
        public var drawn: Int
        public var available: Int
        public var radius: Double
        public var center: GeoPoint
    }

    /// Renders and writes the map (atomically).
    public static func writeMap(
        cars: [FleetCar], availability: [String: CarAvailability], near: GeoPoint?, radius: Double?, to path: String
    ) throws -> MapResult {
        let center = near ?? centroid(cars) ?? GeoPoint.puertaDelSol
        let farthest = cars.map { $0.position.distance(to: center) }.max() ?? 0
        var shown = radius ?? max(200, farthest * 1.15)
        if radius == nil, near != nil { shown = min(shown, FleetListing.defaultRadius) }
        let rows = FleetListing.select(cars, availability: availability, near: center, radius: shown, all: true)
            .filter { ($0.distance ?? 0) <= shown * 1.4 }
        let available = rows.filter { $0.availability.isAvailable }.count
        let title = "CarChain fleet: \(available) of \(rows.count) cars available"
        let map = FleetMap(center: center, radius: shown, user: near, title: title)
        let svg = map.svg(rows)
        do {
            try Data(svg.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw AppError.failed("cannot write \(path): \(error.localizedDescription)")
        }
        return MapResult(path: path, drawn: rows.count, available: available, radius: shown, center: center)
    }

    /// The mean position of the cars (fine for a city-sized fleet).
    public static func centroid(_ cars: [FleetCar]) -> GeoPoint? {
        guard !cars.isEmpty else { return nil }
        let n = Double(cars.count)
        return GeoPoint(latitude: cars.map(\.latitude).reduce(0, +) / n, longitude: cars.map(\.longitude).reduce(0, +) / n)
    }
}

/// JSON forms of fleet records.
public enum FleetJSON {
    public static func car(_ car: FleetCar) -> JSONValue {
        .object([
            ("plate", .string(car.plate)), ("latitude", .number(String(car.latitude))), ("longitude", .number(String(car.longitude))),
            ("updatedAt", .string(ISO8601DateFormatter().string(from: car.updatedAt))),
        ])
    }

    public static func row(_ row: FleetListingEntry) -> JSONValue {
        var members = car(row.car).objectValue ?? []
        members.append(("status", .string(row.availability.description)))
        if case .rented(let renter) = row.availability { members.append(("renter", .string(renter))) }
        if let distance = row.distance { members.append(("distanceMetres", .number(String(Int(distance.rounded()))))) }
        return .object(members)
    }
}

/// The fleet listing as a table (`carchain cars`).
public enum FleetTable {
    public static func render(_ rows: [FleetListingEntry], total: Int, near: GeoPoint?, radius: Double?, all: Bool) -> String {
        if total == 0 { return "no cars on the fleet map yet (the manager adds them with `carchain car register PLATE --at LAT,LON`)" }
        let scope: String
        if all {
            scope = "all \(total) cars"
        } else if let near {
            scope = "\(rows.count) available cars within \(Distance.format(radius ?? FleetListing.defaultRadius)) of \(near) (of \(total))"
        } else {
            scope = "\(rows.count) available cars (of \(total))"
        }
        if rows.isEmpty { return scope + ": none" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        var table = [["PLATE", "DISTANCE", "STATUS", "POSITION", "UPDATED (UTC)"]]
        for row in rows {
            table.append([
                row.car.plate, row.distance.map(Distance.format) ?? "-", row.availability.description,
                String(format: "%.5f,%.5f", row.car.latitude, row.car.longitude), formatter.string(from: row.car.updatedAt),
            ])
        }
        let widths = (0..<5).map { column in table.map { $0[column].count }.max() ?? 0 }
        let lines = table.map { cells in
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        return scope + ":\n" + lines.joined(separator: "\n")
    }
}
