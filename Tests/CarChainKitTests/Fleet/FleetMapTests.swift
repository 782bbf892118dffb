import CarChain
import CarChainKit
import Foundation
import Testing
import TestSupport

/// The SVG map: content checks, and a rendering check with rsvg-convert (librsvg2-bin) to PNG.
@Suite struct FleetMapTests {
    static func demoEntries() -> [FleetListingEntry] {
        let t = Date(timeIntervalSince1970: 1_700_000_000)
        return DemoFleet.plates.enumerated().map { index, plate in
            let car = FleetCar(plate: plate, position: DemoFleet.position(index: index), updatedAt: t)
            return FleetListingEntry(
                car: car, availability: index == 0 ? .rented(by: "uid") : .available, distance: car.position.distance(to: .puertaDelSol))
        }
    }

    @Test func svgHasEveryPlateMarkerLegendAndScaleBar() throws {
        let map = FleetMap(center: .puertaDelSol, radius: 600, user: .puertaDelSol, title: "CarChain fleet & friends")
        let svg = map.svg(Self.demoEntries())
        #expect(svg.hasPrefix("<?xml"))
        for plate in DemoFleet.plates { #expect(svg.contains(">\(plate)</text>"), "\(plate)") }
        #expect(svg.components(separatedBy: "fill=\"\(FleetMap.Colour.available)\" stroke").count - 1 == 17)
        #expect(svg.components(separatedBy: "fill=\"\(FleetMap.Colour.rented)\" stroke").count - 1 == 1)
        #expect(svg.contains("<g id=\"user\">") && svg.contains(">you</text>"))
        #expect(svg.contains("<g id=\"legend\">") && svg.contains(">available</text>") && svg.contains(">rented</text>"))
        #expect(svg.contains("<g id=\"scale\">"))
        #expect(svg.contains("CarChain fleet &amp; friends"))
        // The same input draws the same bytes.
        #expect(map.svg(Self.demoEntries()) == svg)
    }

    @Test func projectionAndScale() {
        let map = FleetMap(center: .puertaDelSol, radius: 500, width: 800, height: 600)
        let c = map.pixel(.puertaDelSol)
        #expect(abs(c.x - 400) < 1e-9 && abs(c.y - 300) < 1e-9)
        // North is up, east is right.
        #expect(map.pixel(GeoPoint.puertaDelSol.moved(metres: 100, bearing: 0)).y < 300)
        #expect(map.pixel(GeoPoint.puertaDelSol.moved(metres: 100, bearing: 90)).x > 400)
        // The radius fits the smaller half-side less the 48-pixel margin.
        let east = map.pixel(GeoPoint.puertaDelSol.moved(metres: 500, bearing: 90))
        #expect(abs((east.x - 400) - 252) < 1.5, "\(east.x)")
        // Web Mercator: y of the equator is 0.5, Greenwich x is 0.5.
        let origin = FleetMap.mercator(GeoPoint(latitude: 0, longitude: 0))
        #expect(abs(origin.x - 0.5) < 1e-12 && abs(origin.y - 0.5) < 1e-12)
        // A 1-2-5 scale bar no longer than a quarter of the width.
        let bar = map.scaleBarMetres
        #expect([100.0, 200, 500].contains(bar), "\(bar)")
        #expect(bar / map.metresPerPixel <= 200)
    }

    @Test func cutsOffCarsOutsideAndEscapesText() {
        let t = Date(timeIntervalSince1970: 0)
        let far = FleetCar(plate: "FAR<1>", position: GeoPoint.puertaDelSol.moved(metres: 50_000, bearing: 0), updatedAt: t)
        let odd = FleetCar(plate: "A&B\"C", position: .puertaDelSol, updatedAt: t)
        let svg = FleetMap(center: .puertaDelSol, radius: 500).svg([
            FleetListingEntry(car: far, availability: .available, distance: nil),
            FleetListingEntry(car: odd, availability: .notOnChain, distance: nil),
        ])
        #expect(!svg.contains("FAR"))
        #expect(svg.contains(">A&amp;B&quot;C</text>"))
        #expect(!svg.contains("A&B"))
    }

    /// Renders the demo map with rsvg-convert and checks the PNG's header and size.
    @Test func rendersToPNGWithRsvgConvert() throws {
        guard
            let rsvg = Prerequisite.tool(
                "rsvg-convert", candidates: ["/opt/homebrew/bin/rsvg-convert"], install: "librsvg2-bin",
                for: "FleetMapTests.rendersToPNGWithRsvgConvert")?.path
        else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let svgURL = directory.appendingPathComponent("fleet.svg"), pngURL = directory.appendingPathComponent("fleet.png")
        let svg = FleetMap(center: .puertaDelSol, radius: 600, user: .puertaDelSol, width: 800, height: 600).svg(Self.demoEntries())
        try Data(svg.utf8).write(to: svgURL)
        for plate in DemoFleet.plates { #expect(svg.contains(plate)) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: rsvg)
        process.arguments = ["--format", "png", "--output", pngURL.path, svgURL.path]
        let errors = Pipe()
        process.standardError = errors
        try process.runWithSignalsUnblocked()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.waitForExit().terminationStatus == 0, "rsvg-convert: \(message)")

        let png = [UInt8](try Data(contentsOf: pngURL))
        #expect(png.count > 10_000, "a map with 18 labelled markers is not a blank image: \(png.count) bytes")
        try #require(png.count > 24)
        #expect(Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(String(decoding: png[12..<16], as: UTF8.self) == "IHDR")
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 800 && height == 600, "\(width)x\(height)")
    }
}
