import CarChain
import EthereumABI
import EthereumPrimitives
import EthereumRPC
import EthereumWire

/// The contract's events from `eth_getLogs`, decoded, in chain order.
public enum ContractHistory {
    /// Every CarChain event of `contract`, decoded, in block and log order.
    public static func events(session: ChainSession, contract: CarChainContract) async throws -> [RecordedCarChainEvent] {
        let logs = try await session.client.logs(LogFilter(fromBlock: .earliest, toBlock: .latest, addresses: [contract.address]))
        let ordered = logs.filter { !$0.removed }.sorted {
            ($0.blockNumber ?? 0, $0.logIndex ?? 0) < ($1.blockNumber ?? 0, $1.logIndex ?? 0)
        }
        return try ordered.compactMap { log throws(ABIError) in try RecordedCarChainEvent(log: log) }
    }
}

extension RecordedCarChainEvent {
    /// Decodes a log of the contract (strictly); nil when it is none of CarChain's events.
    public init?(log: RPCLog) throws(ABIError) {
        guard let event = try CarChainEvent(topics: log.topics, data: log.data) else { return nil }
        self.init(event: event, blockNumber: log.blockNumber ?? 0, transactionHash: log.transactionHash, logIndex: log.logIndex)
    }
}

/// The logged-in user's profile (`carchain profile`): who, account, credit, car, and the history rebuilt from
/// the contract's events.
public struct UserProfile: Sendable {
    public var email: String
    public var uid: String
    public var address: Address?
    public var credit: UInt256
    public var car: String
    public var history: UserHistory

    public static func load(user: LoggedInUser, session: ChainSession) async throws -> UserProfile {
        let contract = try await session.contract()
        let car = try await contract.getUserCar(user.uid)
        guard !car.isEmpty else {
            throw AppError.failed("\(user.email) (uid \(user.uid)) is not registered on chain \(session.chainID): run `carchain login \(user.email)`")
        }
        return UserProfile(
            email: user.email, uid: user.uid, address: try await user.address(contract: contract),
            credit: try await contract.getUserCredit(user.uid), car: car,
            history: UserHistory(userId: user.uid, events: try await ContractHistory.events(session: session, contract: contract)))
    }

    public var text: String {
        var lines = [
            "email:   \(email)", "uid:     \(uid)", "account: \(address?.checksummed ?? "-")", "credit:  \(credit)", "car:     \(car)",
        ]
        lines.append("rentals: \(history.rentals.count)")
        for rental in history.rentals {
            let returned = rental.returnedAt.map { "returned in block \($0)" } ?? "not returned yet"
            lines.append("  \(rental.plate)  rented in block \(rental.rentedAt), \(returned)")
        }
        lines.append("credit top-ups: \(history.topUps.count)")
        for topUp in history.topUps {
            lines.append("  +\(topUp.amount) (balance \(topUp.newBalance)) in block \(topUp.blockNumber)")
        }
        return lines.joined(separator: "\n")
    }

    public var json: JSONValue {
        .object([
            ("email", .string(email)), ("uid", .string(uid)), ("address", address.map { .string($0.checksummed) } ?? .null),
            ("credit", .string(credit.description)), ("car", .string(car)),
            ("rentals", .array(history.rentals.map { rental in
                .object([
                    ("plate", .string(rental.plate)), ("rentedBlock", .number(String(rental.rentedAt))),
                    ("returnedBlock", rental.returnedAt.map { .number(String($0)) } ?? .null),
                ])
            })),
            ("topUps", .array(history.topUps.map { topUp in
                .object([
                    ("amount", .string(topUp.amount.description)), ("newBalance", .string(topUp.newBalance.description)),
                    ("block", .number(String(topUp.blockNumber))),
                ])
            })),
        ])
    }
}
