import Foundation

/// Draws the fleet as an SVG map: Web-Mercator projection centred on a point, one marker per car coloured by
/// availability with its plate, the user's position, the search radius, a scale bar and a legend. The SVG is
/// built as text (no drawing library), so it is the same bytes on every platform.
public struct FleetMap: Sendable {
    /// Image width in pixels.
    public var width: Int
    /// Image height in pixels.
    public var height: Int
    /// The map's centre.
    public var center: GeoPoint
    /// Metres from the centre that must fit in the image (drawn as a dashed circle).
    public var radius: Double
    /// Where the user is (a blue marker), if known.
    public var user: GeoPoint?
    /// A title line at the top.
    public var title: String

    /// Marker colours.
    public enum Colour {
        /// Free cars.
        public static let available = "#2e9e44"
        /// Rented cars.
        public static let rented = "#c8372d"
        /// Cars not registered on chain.
        public static let notOnChain = "#8a8a8a"
        /// The user.
        public static let user = "#1f6feb"
    }

    /// Creates a map description.
    public init(center: GeoPoint, radius: Double, user: GeoPoint? = nil, title: String = "CarChain fleet", width: Int = 800, height: Int = 600) {
        self.center = center
        self.radius = radius
        self.user = user
        self.title = title
        self.width = width
        self.height = height
    }

    /// Web-Mercator world coordinates in [0, 1] × [0, 1] (x east, y south), as map tiles use them.
    public static func mercator(_ point: GeoPoint) -> (x: Double, y: Double) {
        let φ = point.latitude * .pi / 180
        let x = (point.longitude + 180) / 360
        let y = (1 - log(tan(.pi / 4 + φ / 2)) / .pi) / 2
        return (x, y)
    }

    /// Pixels per world unit, chosen so that ``radius`` fills the smaller half-side less a margin.
    var scale: Double {
        let metresPerWorldUnit = 2 * .pi * GeoPoint.earthRadius * cos(center.latitude * .pi / 180)
        let usable = Double(min(width, height)) / 2 - 48
        return usable / (max(radius, 1) / metresPerWorldUnit)
    }

    /// Metres per pixel at the centre's latitude.
    public var metresPerPixel: Double {
        2 * .pi * GeoPoint.earthRadius * cos(center.latitude * .pi / 180) / scale
    }

    /// The pixel position of `point` (x right, y down).
    public func pixel(_ point: GeoPoint) -> (x: Double, y: Double) {
        let c = FleetMap.mercator(center), p = FleetMap.mercator(point)
        let s = scale
        return ((p.x - c.x) * s + Double(width) / 2, (p.y - c.y) * s + Double(height) / 2)
    }

    /// The scale bar's length in metres: the longest 1-2-5 step that fits in a quarter of the width.
    public var scaleBarMetres: Double {
        let limit = Double(width) / 4 * metresPerPixel
        var best = 1.0
        var magnitude = 1.0
        while magnitude <= limit {
            for step in [1.0, 2.0, 5.0] where step * magnitude <= limit { best = step * magnitude }
            magnitude *= 10
        }
        return best
    }

    /// The SVG document for `entries` (cars outside the image are left out).
    public func svg(_ entries: [FleetListingEntry]) -> String {
        var out: [String] = []
        let w = width, h = height
        out.append(##"<?xml version="1.0" encoding="UTF-8"?>"##)
        out.append(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(w)" height="\##(h)" viewBox="0 0 \##(w) \##(h)" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"##)
        out.append("<title>\(FleetMap.escape(title))</title>")
        out.append(##"<rect x="0" y="0" width="\##(w)" height="\##(h)" fill="#f3f0e8"/>"##)
        // A faint grid every scale-bar step, so distances can be judged anywhere on the map.
        let step = scaleBarMetres / metresPerPixel
        if step >= 8 {
            var lines: [String] = []
            var x = Double(w) / 2
            while x > 0 { x -= step }
            while x < Double(w) { x += step; lines.append("M\(FleetMap.n(x)) 0V\(h)") }
            var y = Double(h) / 2
            while y > 0 { y -= step }
            while y < Double(h) { y += step; lines.append("M0 \(FleetMap.n(y))H\(w)") }
            out.append(##"<path d="\##(lines.joined(separator: " "))" stroke="#e1dccf" stroke-width="1" fill="none"/>"##)
        }
        let c = pixel(center)
        let r = radius / metresPerPixel
        out.append(##"<circle cx="\##(FleetMap.n(c.x))" cy="\##(FleetMap.n(c.y))" r="\##(FleetMap.n(r))" fill="#1f6feb" fill-opacity="0.05" stroke="#1f6feb" stroke-opacity="0.5" stroke-dasharray="6 4"/>"##)

        out.append(##"<g id="cars">"##)
        for entry in entries {
            let p = pixel(entry.car.position)
            guard p.x >= 0, p.x <= Double(w), p.y >= 0, p.y <= Double(h) else { continue }
            let colour: String
            switch entry.availability {
            case .available: colour = Colour.available
            case .rented: colour = Colour.rented
            case .notOnChain: colour = Colour.notOnChain
            }
            let plate = FleetMap.escape(entry.car.plate)
            out.append(##"<g class="car \##(entry.availability.isAvailable ? "available" : "unavailable")"><title>\##(plate) (\##(entry.availability))</title>"##
                + ##"<circle cx="\##(FleetMap.n(p.x))" cy="\##(FleetMap.n(p.y))" r="7" fill="\##(colour)" stroke="#ffffff" stroke-width="2"/>"##
                + ##"<text x="\##(FleetMap.n(p.x + 10))" y="\##(FleetMap.n(p.y + 4))" font-size="11" fill="#222222">\##(plate)</text></g>"##)
        }
        out.append("</g>")

        if let user {
            let u = pixel(user)
            out.append(##"<g id="user"><circle cx="\##(FleetMap.n(u.x))" cy="\##(FleetMap.n(u.y))" r="9" fill="\##(Colour.user)" stroke="#ffffff" stroke-width="3"/>"##
                + ##"<text x="\##(FleetMap.n(u.x - 12))" y="\##(FleetMap.n(u.y + 20))" text-anchor="end" font-size="12" font-weight="bold" fill="\##(Colour.user)">you</text></g>"##)
        }

        // Title.
        out.append(##"<text x="16" y="26" font-size="15" font-weight="bold" fill="#222222">\##(FleetMap.escape(title))</text>"##)
        // Legend.
        let legend: [(String, String)] = [
            (Colour.available, "available"), (Colour.rented, "rented"), (Colour.notOnChain, "not on chain"), (Colour.user, "you"),
        ]
        out.append(##"<g id="legend"><rect x="\##(w - 150)" y="12" width="138" height="\##(16 + legend.count * 20)" rx="4" fill="#ffffff" fill-opacity="0.9" stroke="#bbbbbb"/>"##)
        for (i, item) in legend.enumerated() {
            let y = 32 + i * 20
            out.append(##"<circle cx="\##(w - 134)" cy="\##(y - 4)" r="6" fill="\##(item.0)"/><text x="\##(w - 120)" y="\##(y)" font-size="12" fill="#222222">\##(item.1)</text>"##)
        }
        out.append("</g>")
        // Scale bar, bottom left.
        let barMetres = scaleBarMetres
        let barPixels = barMetres / metresPerPixel
        let y0 = Double(h) - 24
        out.append(##"<g id="scale"><path d="M16 \##(FleetMap.n(y0 - 6))V\##(FleetMap.n(y0))H\##(FleetMap.n(16 + barPixels))V\##(FleetMap.n(y0 - 6))" stroke="#222222" stroke-width="2" fill="none"/>"##
            + ##"<text x="16" y="\##(FleetMap.n(y0 - 10))" font-size="12" fill="#222222">\##(Distance.format(barMetres))</text></g>"##)
        // North arrow and attribution of the projection.
        out.append(##"<text x="\##(w - 24)" y="\##(h - 16)" font-size="14" font-weight="bold" fill="#222222" text-anchor="middle">N↑</text>"##)
        out.append(##"<text x="\##(w / 2)" y="\##(h - 8)" font-size="10" fill="#777777" text-anchor="middle">Web Mercator · centre \##(center) · radius \##(Distance.format(radius))</text>"##)
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// XML text escaping.
    public static func escape(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // Control characters are not allowed in XML 1.0 text.
                if let a = ch.asciiValue, a < 0x20 { out += "?" } else { out.append(ch) }
            }
        }
        return out
    }

    /// A coordinate with at most one decimal.
    static func n(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
