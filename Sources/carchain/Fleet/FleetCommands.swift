import ArgumentParser
import CarChain
import CarChainKit
import EthereumPrimitives
import Foundation

/// `carchain car move PLATE --at LAT,LON`.
struct CarMoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Record a car's new position on the fleet map (telemetry, off chain).",
        discussion: """
            The car must be on the fleet map already or registered on chain.

            Example:
              carchain car move 6789BBB --at 40.4170,-3.7050
            """
    )

    @Argument(help: "The plate.") var plate: String
    @Option(help: ArgumentHelp("The new position in degrees.", valueName: "LAT,LON")) var at: String
    @OptionGroup var plates: PlateFormatOption
    @OptionGroup var node: NodeOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        try validating { () throws(FleetError) in
            try plates.format.validate(plate)
            _ = try GeoPoint(parsing: at)
        }
    }

    func run() async throws {
        let position = try GeoPoint(parsing: at)
        let connection = try node.connection()
        let fleet = AppPaths.current(connection).fleet
        if try fleet.car(plate) == nil {
            // Not on the map yet: accept it when the chain knows the car.
            let session = try await ChainSession.reading(connection)
            guard try await session.contract().getCar(plate).registered else { throw FleetError.unknownPlate(plate) }
        }
        let record = try fleet.place(plate, at: position)
        if output.json {
            print(FleetJSON.car(record).description)
        } else {
            print("moved \(plate) to \(position)")
        }
    }
}

/// `carchain cars`.
struct CarsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cars",
        abstract: "List the fleet: cars near a point, nearest first, with availability read from the chain.",
        discussion: """
            Positions come from the fleet registry in the data dir; availability from the contract's getCar. By default only available cars are listed, within --radius (default 2km) of --near; --all lists every car, rented ones too, at any distance.

            Examples:
              carchain cars --near 40.4168,-3.7038
              carchain cars --near 40.4168,-3.7038 --radius 500m --json
              carchain cars --all
            """
    )

    @OptionGroup var area: FleetAreaOptions
    @Flag(help: "List every car: rented ones too, at any distance.") var all = false
    @OptionGroup var node: NodeOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        let (nearPoint, radiusMetres) = try area.parsed()
        let connection = try node.connection()
        let session = try await ChainSession.reading(connection)
        let contract = try await session.contract()
        let cars = try AppPaths.current(connection).fleet.cars()
        let rows = FleetListing.select(
            cars, availability: try await FleetChain.availability(of: cars, contract: contract), near: nearPoint, radius: radiusMetres, all: all)
        if output.json {
            print(JSONValue.array(rows.map(FleetJSON.row)).description)
            return
        }
        print(FleetTable.render(rows, total: cars.count, near: nearPoint, radius: radiusMetres, all: all))
    }
}

/// `carchain map --out FILE.svg`.
struct MapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Draw the fleet as an SVG map: cars coloured by availability, your position, a scale bar.",
        discussion: """
            The map is centred on --near (drawn as "you"), or on the fleet when --near is absent, and shows --radius around it (default: enough for every car, at most 2km around --near). Green cars are available, red ones rented (availability from the chain). Web-Mercator projection; the file is plain SVG any browser opens (rsvg-convert turns it into PNG).

            Examples:
              carchain map --near 40.4168,-3.7038 --out fleet.svg
              carchain map --near 40.4168,-3.7038 --radius 1km --out fleet.svg
            """
    )

    @OptionGroup var area: FleetAreaOptions
    @Option(help: ArgumentHelp("The SVG file to write.", valueName: "FILE.svg")) var out: String
    @OptionGroup var node: NodeOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        let (nearPoint, radiusMetres) = try area.parsed()
        let connection = try node.connection()
        let session = try await ChainSession.reading(connection)
        let contract = try await session.contract()
        let cars = try AppPaths.current(connection).fleet.cars()
        let availability = try await FleetChain.availability(of: cars, contract: contract)
        let result = try FleetChain.writeMap(cars: cars, availability: availability, near: nearPoint, radius: radiusMetres, to: out)
        if output.json {
            print(JSONValue.object([
                ("file", .string(result.path)), ("cars", .number(String(result.drawn))), ("available", .number(String(result.available))),
                ("radiusMetres", .number(String(Int(result.radius.rounded())))),
            ]).description)
        } else {
            print("wrote \(result.path): \(result.drawn) cars (\(result.available) available) within \(Distance.format(result.radius)) of \(result.center)")
        }
    }
}

/// `--near LAT,LON` and `--radius DISTANCE`: the area `carchain cars` lists and `carchain map` draws.
struct FleetAreaOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Where you are, in degrees: distances are measured from here, and the map is centred here.", valueName: "LAT,LON"))
    var near: String?
    @Option(help: ArgumentHelp("How far around --near to look (the map: to show around its centre), e.g. 500m or 2km.", valueName: "distance"))
    var radius: String?

    func validate() throws { try validating { () throws(FleetError) in _ = try parsed() } }

    /// The point and the radius in metres, when given.
    func parsed() throws(FleetError) -> (near: GeoPoint?, radius: Double?) {
        let point = try near.map { text throws(FleetError) in try GeoPoint(parsing: text) }
        return (point, try radius.map { text throws(FleetError) in try Distance.parse(text) })
    }
}
