import CarChain
import EthereumPrimitives
import EthereumRPC

/// The contract's events from `eth_getLogs`, decoded, in chain order.
enum ContractHistory {
    static func events(session: NodeSession, contract: CarChainContract) async throws -> [RecordedCarChainEvent] {
        let logs = try await session.client.logs(LogFilter(fromBlock: .earliest, toBlock: .latest, addresses: [contract.address]))
        let ordered = logs.filter { !$0.removed }.sorted {
            ($0.blockNumber ?? 0, $0.logIndex ?? 0) < ($1.blockNumber ?? 0, $1.logIndex ?? 0)
        }
        var out: [RecordedCarChainEvent] = []
        for log in ordered {
            guard let event = try CarChainEvent(topics: log.topics, data: log.data) else { continue }
            out.append(RecordedCarChainEvent(event: event, blockNumber: log.blockNumber ?? 0, transactionHash: log.transactionHash))
        }
        return out
    }
}

/// `carchain profile` for the logged-in user: who, account, credit, car, and the history from events.
struct UserProfile {
    var email: String
    var uid: String
    var address: Address?
    var credit: UInt256
    var car: String
    var history: UserHistory

    static func load(user: LoggedInUser, session: NodeSession) async throws -> UserProfile {
        let contract = try await session.contract()
        let car = try await contract.getUserCar(user.uid)
        guard !car.isEmpty else {
            throw CLIError("\(user.email) (uid \(user.uid)) is not registered on chain \(session.chainID): run `carchain login \(user.email)`")
        }
        return UserProfile(
            email: user.email, uid: user.uid, address: try await user.address(contract: contract),
            credit: try await contract.getUserCredit(user.uid), car: car,
            history: UserHistory(userId: user.uid, events: try await ContractHistory.events(session: session, contract: contract)))
    }

    var text: String {
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

    var json: JSONValue {
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
