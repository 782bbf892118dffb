import CarChain
import CarChainKit
import EthereumCrypto
import EthereumPrimitives
import Foundation

/// The writes: set up the account, rent, return, buy credit, register and place a car — each checked (role, then the
/// contract's rules) before the keystore is unlocked, then signed with the key the wallet passphrase of this request
/// unlocks, one write at a time. The passphrase is used for that one unlock and never stored or logged.
extension AppAPI {
    /// An action the page names (`rent`, `return`, `credit`, `registerCar`, `register`), as the operation to send for
    /// `user`, the account it is sent from, and the role it needs; the role is checked here, before any passphrase.
    func operation(
        for user: LoggedInUser, action: String?, fields: (String) throws -> String?
    ) async throws -> (operation: CarChainOperation, from: Address) {
        let (contract, manager, account) = try await standing(of: user)
        guard let account else { throw LoggedInUser.KeyError.noAccount(email: user.email) }
        switch action {
        case "rent":
            try ActingUser.check(.notManager, account: account, manager: manager, email: user.email)
            return (.rentCar(plate: try plate(fields("plate")), userId: user.uid), account)
        case "return":
            var plate = try fields("plate") ?? ""
            if plate.isEmpty {
                plate = try await contract.getUserCar(user.uid)
                guard !plate.isEmpty, plate != CarChainModel.noCar else {
                    throw AppAPIError(status: 409, code: "NOT_RENTING", message: "You are not renting a car.")
                }
            }
            return (.returnCar(plate: plate, userId: user.uid), account)
        case "credit":
            let text = try fields("amount") ?? ""
            guard let amount = CreditAmount.parse(text) else {
                throw AppAPIError.badRequest(
                    "Credit is bought in whole numbers from \(CreditAmount.range.lowerBound) to \(CreditAmount.range.upperBound), not \"\(text.prefix(20))\".")
            }
            return (.addCredit(userId: user.uid, credit: UInt256(amount)), account)
        case "registerCar":
            try ActingUser.check(.managerOnly, account: account, manager: manager, email: user.email)
            return (.registerNewCar(plate: try plate(fields("plate"))), account)
        case "register":
            return (.registerNewUser(userId: user.uid), account)
        case nil:
            throw AppAPIError.badRequest("Say which action: rent, return, credit or registerCar.")
        case let other?:
            throw AppAPIError.badRequest("Unknown action \"\(other.prefix(40))\" (rent, return, credit, registerCar or register).")
        }
    }

    /// A plate in the configured format.
    func plate(_ text: String?) throws -> String {
        guard let text, !text.isEmpty else { throw AppAPIError.badRequest("Give the car's plate.") }
        return try configuration.plateFormat.validate(text)
    }

    /// `POST /rent {plate, walletPassphrase}`.
    func rent(_ user: LoggedInUser, _ body: JSONBody) async throws -> JSONValue {
        try await send(user, action: "rent", body: body, role: .notManager) { "rented car \($0.plate ?? "") to \(user.email)" }
    }

    /// `POST /return {plate?, walletPassphrase}` (no plate: the car the user rents).
    func returnCar(_ user: LoggedInUser, _ body: JSONBody) async throws -> JSONValue {
        try await send(user, action: "return", body: body, role: .any) { "returned car \($0.plate ?? "") from \(user.email)" }
    }

    /// `POST /credit {amount, walletPassphrase}`.
    func buyCredit(_ user: LoggedInUser, _ body: JSONBody) async throws -> JSONValue {
        try await send(user, action: "credit", body: body, role: .any) { operation in
            if case .addCredit(_, let credit) = operation { return "added \(credit) credit to \(user.email)" }
            return "added credit to \(user.email)"
        }
    }

    /// `POST /cars {plate, latitude, longitude, walletPassphrase}` (the manager): registers the car on chain and places
    /// it on the fleet map, as `carchain car register PLATE --at LAT,LON` does.
    func registerCar(_ user: LoggedInUser, _ body: JSONBody) async throws -> JSONValue {
        let position = try Self.position(body)
        let result = try await send(user, action: "registerCar", body: body, role: .managerOnly) { "registered car \($0.plate ?? "")" }
        let plate = try self.plate(body.string("plate"))
        let record = try paths.fleet.place(plate, at: position)
        await snapshots.registryChanged()
        var members = result.objectValue ?? []
        members.append(("car", FleetJSON.car(record)))
        return .object(members)
    }

    /// `POST /cars/PLATE/position {latitude, longitude}` (the manager): records where a car registered on chain is, as
    /// `carchain car move` does (telemetry, off chain; after a wallet registered the car too).
    func placeCar(_ user: LoggedInUser, plate text: String, _ body: JSONBody) async throws -> JSONValue {
        let (contract, manager, account) = try await standing(of: user)
        try ActingUser.check(.managerOnly, account: account, manager: manager, email: user.email)
        let plate = try self.plate(text)
        let position = try Self.position(body)
        if try paths.fleet.car(plate) == nil, !(try await contract.getCar(plate).registered) {
            throw AppAPIError(status: 404, code: "NO_SUCH_CAR", message: "No car with plate \(plate) is registered on chain.")
        }
        let record = try paths.fleet.place(plate, at: position)
        await snapshots.registryChanged()
        return .object([("car", FleetJSON.car(record))])
    }

    /// The position fields of a body.
    static func position(_ body: JSONBody) throws -> GeoPoint {
        let point = GeoPoint(latitude: try body.number("latitude"), longitude: try body.number("longitude"))
        guard point.isValid else { throw FleetError.invalidCoordinate(point.description) }
        return point
    }

    /// Refuses what needs a key on the server when the browser signs (a real network): the server holds none.
    func requireServerKeys() throws {
        guard serverSigns else {
            throw AppAPIError(
                status: 409, code: "BROWSER_SIGNS",
                message: "This server holds no account keys: your browser signs (its own keystore, or your wallet). Reload the page if it asked the server.")
        }
    }

    /// The wallet passphrase of a write: required, never empty.
    static func passphrase(_ body: JSONBody) throws -> String {
        guard let text = try body.string("walletPassphrase", maxBytes: 1024), !text.isEmpty else {
            throw AppAPIError.badRequest("Type your wallet passphrase: it unlocks your account key for this action only.")
        }
        return text
    }

    /// Checks, unlocks, sends and reports one write.
    private func send(
        _ user: LoggedInUser, action: String, body: JSONBody, role: ActingUser.Role, summary: @escaping @Sendable (CarChainOperation) -> String
    ) async throws -> JSONValue {
        try requireServerKeys()
        let passphrase = try Self.passphrase(body)
        let fields = try Self.actionFields(body)
        return try await writes.run {
            let (operation, from) = try await operation(for: user, action: action, fields: { fields[$0] ?? nil })
            // The contract's rules first: a refusal costs neither gas nor a keystore unlock.
            try await CarChainTransactionRunner.check(operation, contract: try await self.contract(), sender: from)
            let acting = try await ActingUser.resolve(
                user: user, reading: reading, settings: configuration.settings, role: role, password: { _ in passphrase })
            let transaction = try await CarChainTransactionRunner.execute(operation, session: acting.session)
            let report = TransactionReport(summary: summary(operation), function: operation.functionName, outcome: transaction.outcome)
            guard transaction.outcome.succeeded else {
                throw AppAPIError(
                    status: 409, code: "REVERTED", message: "The transaction was mined but reverted: \(report.failureReason).",
                    reason: report.failureReason)
            }
            return report.json(extra: [("feeEth", .string(Units.format(transaction.outcome.fee, as: .ether)))])
        }
    }

    /// The string fields an action reads (`plate`, `amount`), read from the body once.
    static func actionFields(_ body: JSONBody) throws -> [String: String?] {
        var fields: [String: String?] = ["plate": try body.string("plate", required: false, maxBytes: 64)]
        switch body.value("amount") {
        case .number(let text)?, .string(let text)?: fields["amount"] = text
        case nil, .null?: break
        default: throw AppAPIError.badRequest("The field \"amount\" must be a whole number.")
        }
        return fields
    }
}
