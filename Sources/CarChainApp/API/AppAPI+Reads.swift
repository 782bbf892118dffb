import CarChain
import CarChainKit
import EthereumPrimitives
import Foundation

/// The reads: configuration, the user's profile and history, the fleet, availability, statistics, the users (the
/// manager's), a fee quote and a wallet transaction's status.
extension AppAPI {
    /// `GET /config` (no token): what the page needs before anyone signs in. A chain without CarChain (none deployed,
    /// removed by a reset, or foreign code at the address) answers with `contract` null and `noContract` saying why.
    func config() async throws -> JSONValue {
        var contract: CarChainContract?
        var noContract: JSONValue = .null
        do {
            contract = try await self.contract()
        } catch {
            let failure = AppAPIError.from(error)
            guard failure.code == "NO_CONTRACT" else { throw error }
            noContract = .string(failure.message)
        }
        let cars = try paths.fleet.cars()
        let center = FleetChain.centroid(cars) ?? GeoPoint.puertaDelSol
        var manager: JSONValue = .null
        var managerDevAccount: JSONValue = .null
        if let contract {
            let address = try await contract.manager()
            manager = .string(address.checksummed)
            if let index = configuration.devAccounts.firstIndex(of: address) { managerDevAccount = .number(String(index)) }
        }
        // On a dev node the page calls the node's own emulator routes (same origin, relative paths).
        let auth: [(String, JSONValue)] = [
            ("apiKey", .string(configuration.auth?.apiKey ?? "carchain-web")),
            ("identity", .string(configuration.auth?.identityBase ?? "/identitytoolkit.googleapis.com")),
            ("token", .string(configuration.auth?.tokenBase ?? "/securetoken.googleapis.com")),
            ("production", .bool(configuration.auth?.isProduction ?? false)),
        ]
        var tiles: JSONValue = .null
        if let map = configuration.tiles {
            tiles = .object([
                ("template", .string(map.template)), ("attribution", .string(map.attribution)), ("maxZoom", .number(String(map.maxZoom))),
            ])
        }
        return .object([
            ("projectId", .string(configuration.projectId)),
            ("chainId", .number(String(reading.chainID))),
            ("network", Self.networkName(reading.chainID).map { .string($0) } ?? .null),
            ("signing", .string(configuration.signing.rawValue)),
            ("confirmations", .number(String(max(configuration.settings.confirmations, 1)))),
            ("contract", contract.map { .string($0.address.checksummed) } ?? .null),
            ("noContract", noContract),
            ("manager", manager),
            ("managerDevAccount", managerDevAccount),
            ("auth", .object(auth)),
            ("tiles", tiles),
            ("ethPrice", pricing(gasPrice: .zero).ethPrice.map { .string($0) } ?? .null),
            ("currency", .string("USD")),
            ("center", AppJSON.point(center)),
            ("plateFormat", .string(configuration.plateFormat.rawValue)),
            ("creditRange", .array([.number(String(CreditAmount.range.lowerBound)), .number(String(CreditAmount.range.upperBound))])),
            ("pollIntervalMs", .number(String(Int((configuration.pollInterval * 1000).rounded())))),
        ])
    }

    /// The names people know public chains by (the page says which network it is on).
    public static func networkName(_ chainID: UInt64) -> String? {
        switch chainID {
        case 1: return "Ethereum mainnet"
        case 11_155_111: return "Sepolia"
        case 17000: return "Holesky"
        case 560_048: return "Hoodi"
        case 10: return "OP Mainnet"
        case 8453: return "Base"
        case 42161: return "Arbitrum One"
        default: return nil
        }
    }

    /// `GET /head` (no token): the chain's head block, for the page's connection state and its polling where it has
    /// no WebSocket to the node (a real network). A node that does not answer is `502 NODE_UNREACHABLE`.
    func head() async throws -> JSONValue {
        .object([("block", .number(String(try await reading.client.blockNumber()))), ("chainId", .number(String(reading.chainID)))])
    }

    /// `GET /me`: who the token names, their account and role on chain, credit, car and balance.
    func me(_ user: LoggedInUser) async throws -> JSONValue {
        let (contract, manager, account) = try await standing(of: user)
        let registered = try await contract.isUserRegistered(user.uid)
        let car = registered ? try await contract.getUserCar(user.uid) : CarChainModel.noCar
        let credit = registered ? try await contract.getUserCredit(user.uid) : .zero
        var balance: UInt256?
        if let account { balance = try await reading.client.balance(of: account) }
        let holdsKey = try account.map { try paths.keystores.file(for: $0) != nil } ?? false
        return .object([
            ("uid", .string(user.uid)), ("email", .string(user.email)),
            ("address", account.map { .string($0.checksummed) } ?? .null),
            ("role", .string(account == manager ? "manager" : "user")),
            ("registered", .bool(registered)),
            ("serverHoldsKey", .bool(holdsKey)),
            ("credit", .string(credit.description)),
            ("car", car == CarChainModel.noCar || car.isEmpty ? .null : .string(car)),
            ("balanceWei", balance.map { .string($0.description) } ?? .null),
            ("balanceEth", balance.map { .string(Units.format($0, as: .ether)) } ?? .null),
            ("manager", .string(manager.checksummed)),
            ("chainId", .number(String(reading.chainID))),
        ])
    }

    /// `GET /me/history`: rentals and top-ups rebuilt from the contract's events (``UserProfile``).
    func history(_ user: LoggedInUser) async throws -> JSONValue {
        let contract = try await self.contract()
        guard try await contract.isUserRegistered(user.uid) else {
            return .object([("uid", .string(user.uid)), ("registered", .bool(false)), ("rentals", .array([])), ("topUps", .array([]))])
        }
        let profile = try await UserProfile.load(user: user, session: reading)
        var members = profile.json.objectValue ?? []
        members.append(("registered", .bool(true)))
        members.append(("registeredBlock", profile.history.registeredAt.map { .number(String($0)) } ?? .null))
        return .object(members)
    }

    /// The fleet at the current head.
    func snapshot() async throws -> FleetSnapshots.Snapshot {
        let contract = try await self.contract()
        return try await snapshots.snapshot(head: try await reading.client.blockNumber(), contract: contract)
    }

    /// `GET /cars?near=LAT,LON&radius=METRES&q=PLATE&available=true`: the cars with position, availability and
    /// distance, nearest first (by plate without `near`). Renters are shown to the manager; a user sees `mine`.
    func cars(_ user: LoggedInUser, query: [String: String]) async throws -> JSONValue {
        let near = try query["near"].map { text throws(FleetError) in try GeoPoint(parsing: text) }
        let radius = try query["radius"].map { text throws(FleetError) in try Distance.parse(text) }
        let onlyAvailable = try Self.flag(query["available"], name: "available")
        let search = query["q"].map { $0.trimmingCharacters(in: .whitespaces).uppercased() } ?? ""
        guard search.utf8.count <= 64 else { throw AppAPIError.badRequest("The plate searched for is longer than 64 bytes.") }
        let (contract, manager, account) = try await standing(of: user)
        _ = contract
        let fleet = try await snapshot()
        var rows = FleetListing.select(fleet.cars, availability: fleet.availability, near: near, radius: radius, all: !onlyAvailable)
        if near != nil, let radius, !onlyAvailable { rows.removeAll { ($0.distance ?? 0) > radius } }
        if !search.isEmpty { rows.removeAll { !$0.car.plate.uppercased().contains(search) } }
        let isManager = account == manager
        return .object([
            ("block", .number(String(fleet.head))),
            ("total", .number(String(fleet.cars.count))),
            ("available", .number(String(fleet.availability.values.filter(\.isAvailable).count))),
            ("cars", .array(rows.map { AppJSON.car($0, viewer: user.uid, showsRenter: isManager) })),
        ])
    }

    /// `GET /availability`: each car's status at the head, for the page's refresh after a new block.
    func availability(_ user: LoggedInUser) async throws -> JSONValue {
        _ = user
        let fleet = try await snapshot()
        let statuses = fleet.cars.map { car in
            (key: car.plate, value: JSONValue.string(AppJSON.status(fleet.availability[car.plate] ?? .notOnChain, viewer: "")))
        }
        return .object([
            ("block", .number(String(fleet.head))),
            ("available", .number(String(fleet.availability.values.filter(\.isAvailable).count))),
            ("rented", .number(String(fleet.availability.values.filter { if case .rented = $0 { return true } else { return false } }.count))),
            ("cars", .object(statuses)),
        ])
    }

    /// `GET /stats`: the contract's counters and the fleet's utilisation over time (``FleetUtilisation``).
    func stats(_ user: LoggedInUser) async throws -> JSONValue {
        _ = user
        let contract = try await self.contract()
        let events = try await ContractHistory.events(session: reading, contract: contract)
        let series = FleetUtilisation(events: events)
        return .object([
            ("block", .number(String(try await reading.client.blockNumber()))),
            ("registeredUsers", .string(try await contract.registeredUsers().description)),
            ("registeredCars", .string(try await contract.registeredCars().description)),
            ("rentedCars", .string(try await contract.rentedCars().description)),
            ("availableCars", .string(try await contract.availableCars().description)),
            ("utilisation", .array(series.thinned(to: 400).map { point in
                .object([
                    ("block", .number(String(point.blockNumber))), ("registered", .number(String(point.registered))),
                    ("rented", .number(String(point.rented))),
                ])
            })),
        ])
    }

    /// `GET /users` (the manager): every registered user id with its account, email (when this server made the
    /// account), credit and car.
    func users(_ user: LoggedInUser) async throws -> JSONValue {
        let (contract, manager, account) = try await standing(of: user)
        try ActingUser.check(.managerOnly, account: account, manager: manager, email: user.email)
        let registered = RegisteredUser.all(in: try await ContractHistory.events(session: reading, contract: contract))
        let book = try paths.accounts.entries()
        var rows: [JSONValue] = []
        for entry in registered {
            let car = try await contract.getUserCar(entry.userId)
            let known = book.last { $0.uid == entry.userId }
            let address = entry.account ?? known.flatMap { try? Address($0.address) }
            rows.append(.object([
                ("uid", .string(entry.userId)),
                ("email", known.map { .string($0.email) } ?? .null),
                ("address", address.map { .string($0.checksummed) } ?? .null),
                ("role", .string(address == manager ? "manager" : "user")),
                ("credit", .string(try await contract.getUserCredit(entry.userId).description)),
                ("car", car == CarChainModel.noCar ? .null : .string(car)),
                ("registeredBlock", .number(String(entry.blockNumber))),
            ]))
        }
        return .object([("users", .array(rows))])
    }

    /// `GET /quote?action=rent&plate=P` (also `return`, `credit&amount=N`, `registerCar&plate=P`): what the
    /// transaction would cost — the gas estimate and the fee in ETH and, with a configured price, in USD — after the
    /// checks that would refuse it (so a refusal shows before the confirmation).
    func quote(_ user: LoggedInUser, query: [String: String]) async throws -> JSONValue {
        let (operation, from) = try await operation(for: user, action: query["action"], fields: { query[$0] })
        let prepared = try await CarChainTransactionRunner.prepare(operation, session: reading, from: from)
        return AppJSON.quote(prepared, pricing: pricing(gasPrice: prepared.gasPrice))
    }

    /// `GET /transactions/HASH`: a transaction the page's signer sent — pending, or its outcome with how many blocks
    /// hold it (`confirmations`, its own included) and whether that is the configured number (`confirmed`).
    func transaction(_ user: LoggedInUser, hash text: String) async throws -> JSONValue {
        _ = user
        guard let hash = try? Bytes32(hex: text) else { throw AppAPIError.badRequest("\"\(text.prefix(80))\" is not a transaction hash.") }
        let required = max(configuration.settings.confirmations, 1)
        guard let outcome = try await CarChainTransactionRunner.outcome(of: hash, session: reading) else {
            return .object([
                ("transactionHash", .string(hash.hexString)), ("status", .string("pending")), ("confirmations", .number("0")),
                ("requiredConfirmations", .number(String(required))), ("confirmed", .bool(false)),
            ])
        }
        let head = try await reading.client.blockNumber()
        let confirmations = head >= outcome.blockNumber ? head - outcome.blockNumber + 1 : 0
        var members: [(key: String, value: JSONValue)] = [
            ("transactionHash", .string(hash.hexString)), ("status", .string(outcome.succeeded ? "success" : "reverted")),
            ("blockNumber", .number(String(outcome.blockNumber))), ("gasUsed", .number(String(outcome.gasUsed))),
            ("feeWei", .string(outcome.fee.description)), ("feeEth", .string(Units.format(outcome.fee, as: .ether))),
            ("confirmations", .number(String(confirmations))), ("requiredConfirmations", .number(String(required))),
            ("confirmed", .bool(confirmations >= required)),
        ]
        if !outcome.succeeded {
            let reason = outcome.revertData.map(CarChainTransactionRunner.reason) ?? "reason not available"
            let failure = AppAPIError.classify(reason: reason)
            members.append(("reason", .string(reason)))
            members.append(("code", .string(failure.code)))
            members.append(("message", .string("\(failure.sentence) (The transaction reverted: \(reason).)")))
        }
        return .object(members)
    }

    /// `true`/`false`/absent → Bool; anything else is a `BAD_REQUEST`.
    static func flag(_ text: String?, name: String) throws(AppAPIError) -> Bool {
        switch text {
        case nil, "false", "0": return false
        case "true", "1": return true
        default: throw .badRequest("The parameter \"\(name)\" must be true or false.")
        }
    }
}
