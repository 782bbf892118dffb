import CarChain
import EthereumABI
import EthereumPrimitives
import TestSupport

/// One generated step: who sends what, with how much ether (the contract refuses any).
struct GeneratedOperation {
    var sender: Int
    var operation: CarChainOperation
    var value: UInt256 = .zero

    /// The op in tools/xcheck/carchain_ops.py's JSON form.
    var json: JSONValue {
        var args: [(key: String, value: JSONValue)] = []
        switch operation {
        case .registerNewUser(let u): args = [("userId", .string(u))]
        case .registerNewCar(let p): args = [("plate", .string(p))]
        case .addCredit(let u, let c): args = [("userId", .string(u)), ("credit", .string(c.description))]
        case .rentCar(let p, let u), .returnCar(let p, let u): args = [("plate", .string(p)), ("userId", .string(u))]
        }
        return .object([
            ("sender", .number(String(sender))), ("function", .string(operation.functionName)),
            ("args", .object(args)), ("value", .string(value.description)),
        ])
    }
}

/// Seeded random CarChain operation sequences over small pools of ids and plates that include every
/// edge case: empty, the reserved "-", the longest accepted, one byte over, the decoder's bound and one
/// byte beyond it, multi-byte UTF-8, canonically equivalent spellings with different bytes, case variants.
struct OperationGenerator {
    var rng: SplitMix64
    /// The state so far, to steer choices toward registered users and cars and current rentals, so
    /// sequences reach deep states (rentals, second rentals, returns by the wrong user) often.
    var model = CarChainModel(manager: Keys.manager)

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// Ids owned by accounts 1…3 (their own account registers and mostly acts for them).
    static let owners = ["alice": 1, "bob": 2, "carol": 3]
    static let validIds = ["u1", "u2", "U1", "alice", "bob", "carol", "O6fLnMnVXAUWmxdIYatVNzaE31i1", "\u{e9}t\u{e9}", "e\u{301}t\u{e9}"]
    static let oddIds = [
        "", "-", String(repeating: "m", count: 128), String(repeating: "x", count: 129), String(repeating: "ü", count: 64),
        String(repeating: "y", count: 256), String(repeating: "z", count: 257),
    ]
    static let validPlates = ["C1", "C2", "C3", "c1", "6789BBB", String(repeating: "P", count: 31), "Ω-1"]
    static let oddPlates = ["", "-", String(repeating: "Q", count: 32), String(repeating: "R", count: 64), String(repeating: "S", count: 65)]
    static let amounts: [UInt256] = [
        0, 1, 1, 2, 3, 5, CarChainModel.maxCredit, CarChainModel.maxCredit - 1, UInt256.one << 191, .max,
    ]
    /// Every id and plate, for the final views.
    static let allIds = validIds + oddIds
    static let allPlates = validPlates + oddPlates

    mutating func below(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ list: [T]) -> T { list[below(list.count)] }

    mutating func userId() -> String {
        if chance(10) { return pick(Self.oddIds) }
        let registered = Self.validIds.filter { model.isUserRegistered($0) }
        return !registered.isEmpty && chance(65) ? pick(registered) : pick(Self.validIds)
    }

    mutating func plate() -> String {
        if chance(10) { return pick(Self.oddPlates) }
        let registered = Self.validPlates.filter { model.getCar($0).registered }
        return !registered.isEmpty && chance(70) ? pick(registered) : pick(Self.validPlates)
    }

    /// The id's own account or the manager, now and then anybody (a stranger is key 4).
    mutating func sender(for userId: String) -> Int {
        if chance(12) { return 1 + below(4) }
        if let owner = Self.owners[userId], chance(60) { return owner }
        return 0
    }

    mutating func step() -> GeneratedOperation {
        let roll = below(180)
        let value: UInt256 = chance(2) ? 1 : 0
        if roll < 20 {
            let u = userId()
            // Now and then an account that may already be bound registers another id.
            let from = chance(25) ? 1 + below(4) : sender(for: u)
            return GeneratedOperation(sender: from, operation: .registerNewUser(userId: u), value: value)
        }
        if roll < 32 {
            return GeneratedOperation(sender: chance(85) ? 0 : 1 + below(4), operation: .registerNewCar(plate: plate()), value: value)
        }
        if roll < 62 {
            let u = userId()
            return GeneratedOperation(sender: sender(for: u), operation: .addCredit(userId: u, credit: pick(Self.amounts)), value: value)
        }
        var u = userId()
        var p = plate()
        if roll >= 121, chance(50) {
            // Return a car that is rented, mostly by its renter.
            let rented = Self.validPlates.filter { !model.getCar($0).renter.isEmpty }
            if !rented.isEmpty {
                p = pick(rented)
                if chance(75) { u = model.getCar(p).renter }
            }
        }
        let op: CarChainOperation = roll < 121 ? .rentCar(plate: p, userId: u) : .returnCar(plate: p, userId: u)
        return GeneratedOperation(sender: sender(for: u), operation: op, value: value)
    }

    /// A short opening that registers some users and cars and adds credit (so rentals can happen), then
    /// random steps.
    mutating func sequence(length: Int) -> [GeneratedOperation] {
        model = CarChainModel(manager: Keys.manager)
        var ops: [GeneratedOperation] = []
        for _ in 0..<below(4) {
            let u = pick(Self.validIds)
            ops.append(GeneratedOperation(sender: Self.owners[u] ?? 0, operation: .registerNewUser(userId: u)))
            ops.append(GeneratedOperation(sender: 0, operation: .addCredit(userId: u, credit: UInt256(UInt64(below(3))))))
        }
        for _ in 0..<1 + below(3) {
            ops.append(GeneratedOperation(sender: 0, operation: .registerNewCar(plate: pick(Self.validPlates))))
        }
        for op in ops { _ = model.apply(op.operation, from: Keys.addresses[op.sender], value: op.value) }
        while ops.count < length {
            let op = step()
            _ = model.apply(op.operation, from: Keys.addresses[op.sender], value: op.value)
            ops.append(op)
        }
        return ops
    }
}
