import CarChain
import EthereumABI
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// The Must-show check: CarChainModel and the contract's bytecode (on py-evm, through
/// tools/xcheck/carchain_ops.py) agree on hundreds of random operation sequences: same success or
/// revert, same reason (decoded by Swift and by eth-abi), same events (decoded from the raw logs by
/// Swift, and by eth-abi), same reads after every operation and over the whole pools at the end.
@Suite(.serialized) struct ModelAgreementTests {
    static let sequenceCount = 300

    @Test func modelAgreesWithBytecode() throws {
        var generator = OperationGenerator(seed: 0xCA5C_4A17)
        let sequences = (0..<Self.sequenceCount).map { _ in generator.sequence(length: 4 + generator.below(15)) }
        try Self.run(sequences, mined: false, suite: "CarChain model vs bytecode")
    }

    /// A few sequences as real signed transactions, one block each, to show the fast executor changes nothing.
    @Test func modelAgreesWithMinedTransactions() throws {
        var generator = OperationGenerator(seed: 0x5EED_0002)
        let sequences = (0..<4).map { _ in generator.sequence(length: 16) }
        try Self.run(sequences, mined: true, suite: "CarChain model vs bytecode (mined)")
    }

    /// The distinct strings (by bytes) in order of first appearance.
    static func touched(_ strings: [String]) -> [String] {
        var seen = Set<[UInt8]>()
        return strings.filter { seen.insert(Array($0.utf8)).inserted }
    }

    static func run(_ sequences: [[GeneratedOperation]], mined: Bool, suite: String) throws {
        let request = JSONValue.object([
            ("keys", .array(Keys.hex.map { .string($0) })),
            ("mined", .bool(mined)),
            ("sequences", .array(sequences.map { ops in
                .object([
                    // Every id and plate the sequence named (what it can have changed), plus two it did not.
                    ("views", .object([
                        ("userIds", .array(touched(ops.compactMap(\.operation.userId) + ["u2", "nobody"]).map { .string($0) })),
                        ("plates", .array(touched(ops.compactMap(\.operation.plate) + ["C3", "none"]).map { .string($0) })),
                    ])),
                    ("ops", .array(ops.map(\.json))),
                ])
            })),
        ])
        guard let output = try PythonVenv.run(script: "xcheck/carchain_ops.py", input: Data(request.description.utf8), what: suite) else { return }
        let response = try JSONValue(parsing: [UInt8](output))
        let accounts = try #require(response["accounts"]?.arrayValue).compactMap { $0.stringValue.flatMap { try? Address($0) } }
        try #require(accounts == Keys.addresses, "py-evm derives other addresses: \(accounts)")
        let results = try #require(response["sequences"]?.arrayValue)
        try #require(results.count == sequences.count)

        var tally = ConformanceTally(suite: suite)
        var outcomes: [String: Int] = [:]
        var operationCount = 0
        for (s, (ops, result)) in zip(sequences, results).enumerated() {
            var model = CarChainModel(manager: accounts[0])
            let steps = result["results"]?.arrayValue ?? []
            guard steps.count == ops.count else {
                tally.record(.fail("\(steps.count) results for \(ops.count) ops"), case: "sequence \(s)")
                continue
            }
            var problems: [String] = []
            for (i, (op, step)) in zip(ops, steps).enumerated() {
                operationCount += 1
                let expected = model.apply(op.operation, from: accounts[op.sender], value: op.value)
                let place = "op \(i) \(op.operation) from key \(op.sender)\(op.value == .zero ? "" : " value \(op.value)")"
                switch expected {
                case .success: outcomes["ok", default: 0] += 1
                case .reverted(.error(let reason)): outcomes[reason, default: 0] += 1
                case .reverted: outcomes["(empty revert data)", default: 0] += 1
                }
                problems += compareStep(step, expected: expected, place: place)
                problems += compareViews(step["views"]?.dictionary ?? [:], model: model, place: place + ", views after")
                if !problems.isEmpty { break }  // later steps would only repeat the divergence
            }
            if problems.isEmpty {
                problems += compareViews(result["finalViews"]?.dictionary ?? [:], model: model, place: "final views")
            }
            tally.record(problems.isEmpty ? .pass : .fail(problems.prefix(4).joined(separator: "; ")), case: "sequence \(s)")
        }
        tally.report()
        print("\(suite): \(sequences.count) sequences, \(operationCount) operations; outcomes: "
            + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        if !mined {
            // Every outcome must have happened, or the agreement proves little.
            for reason in [
                "ok", "(empty revert data)", "empty user id", "user id too long", "user already registered",
                "account already has a user id", "caller is not the manager", "empty plate", "plate too long",
                #"plate "-" is reserved"#, "car already registered", "not user's account or manager", "user not registered",
                "credit overflow", "car not registered", "car already rented", "insufficient credit",
                "user already renting a car", "car not rented", "car rented by another user",
            ] {
                #expect(outcomes[reason, default: 0] > 0, "the sequences never produced \(reason)")
            }
        }
    }

    /// Success, revert data and reason, events (Swift's decoding of the raw logs and eth-abi's).
    static func compareStep(_ step: JSONValue, expected: CarChainModel.Outcome, place: String) -> [String] {
        var problems: [String] = []
        let ok = step["ok"]?.boolValue == true
        let revertData = bytes(step["revertData"])
        switch expected {
        case .success(let events):
            guard ok else {
                return ["\(place): bytecode reverted (\(RevertReason(data: revertData))), model succeeded"]
            }
            let logs = step["logs"]?.arrayValue ?? []
            var decoded: [CarChainEvent] = []
            for log in logs {
                let topics = (log["topics"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap { try? Bytes32(hex: $0) } }
                do {
                    if let e = try CarChainEvent(topics: topics, data: bytes(log["data"])) { decoded.append(e) } else { problems.append("\(place): unknown log") }
                } catch {
                    problems.append("\(place): log does not decode: \(error)")
                }
            }
            if decoded != events { problems.append("\(place): events \(decoded), model \(events)") }
            let python = (step["events"]?.arrayValue ?? []).map { sortedKeys($0).description }
            let modelAsPython = events.map(pythonForm)
            if python != modelAsPython { problems.append("\(place): eth-abi events \(python), model \(modelAsPython)") }
        case .reverted(let reason):
            guard !ok else { return ["\(place): bytecode succeeded, model reverted (\(reason))"] }
            let got = RevertReason(data: revertData)
            if got != reason { problems.append("\(place): bytecode \(got), model \(reason)") }
            let pythonReason = step["reason"]?.stringValue
            if case .error(let r) = reason, pythonReason != r { problems.append("\(place): eth-abi reason \(pythonReason ?? "nil"), model \(r)") }
            if !(step["logs"]?.arrayValue ?? []).isEmpty { problems.append("\(place): a reverted call left logs") }
        }
        return problems
    }

    /// The event as carchain_ops.py prints eth-abi's decoding of it.
    static func pythonForm(_ event: CarChainEvent) -> String {
        let names = CarChainEvent.definitions.first { $0.name == event.name }?.inputs.map(\.name) ?? []
        let args: [(key: String, value: JSONValue)] = zip(names, event.values).map { name, value in
            if case .address(let a) = value { return (name, .string(a.lowercasedHex)) }
            return (name, value.jsonValue)
        }
        return sortedKeys(JSONValue.object([("event", .string(event.name)), ("args", .object(args))])).description
    }

    /// Objects with their members in key order, so two spellings of the same JSON compare equal.
    static func sortedKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members): return .object(members.map { ($0.key, sortedKeys($0.value)) }.sorted { $0.key < $1.key })
        case .array(let items): return .array(items.map(sortedKeys))
        default: return value
        }
    }

    /// Every view present in `views` against the model's answer.
    static func compareViews(_ views: [String: JSONValue], model: CarChainModel, place: String) -> [String] {
        var problems: [String] = []
        func check(_ query: CarChainQuery, _ json: JSONValue) {
            let got = chainResult(query, json)
            let want = model.read(query)
            if got != want { problems.append("\(place): \(query) is \(got?.description ?? "a revert") on chain, \(want?.description ?? "a revert") in the model") }
        }
        let counters: [(String, CarChainQuery)] = [
            ("registeredUsers", .registeredUsers), ("registeredCars", .registeredCars), ("rentedCars", .rentedCars), ("availableCars", .availableCars),
        ]
        for (name, query) in counters {
            guard let v = views[name] else { problems.append("\(place): \(name) missing"); continue }
            check(query, v)
        }
        let perId: [(String, (String) -> CarChainQuery)] = [
            ("getUserCredit", { .getUserCredit(userId: $0) }), ("getUserCar", { .getUserCar(userId: $0) }),
            ("isUserRegistered", { .isUserRegistered(userId: $0) }), ("getUserAccount", { .getUserAccount(userId: $0) }),
        ]
        for (name, make) in perId {
            for pair in views[name]?.arrayValue ?? [] {
                guard let items = pair.arrayValue, items.count == 2, let id = items[0].stringValue else { continue }
                check(make(id), items[1])
            }
        }
        for pair in views["getCar"]?.arrayValue ?? [] {
            guard let items = pair.arrayValue, items.count == 2, let plate = items[0].stringValue else { continue }
            check(.getCar(plate: plate), items[1])
        }
        return problems
    }

    /// carchain_ops.py's JSON for a view's answer, as a query result (nil for null: the view reverted).
    static func chainResult(_ query: CarChainQuery, _ json: JSONValue) -> CarChainQueryResult? {
        switch (query, json) {
        case (.getUserCar, .string(let s)): return .text(s)
        case (.isUserRegistered, .bool(let b)): return .flag(b)
        case (.getUserAccount, .string(let s)), (.manager, .string(let s)): return (try? Address(s)).map { .account($0) }
        case (.getCar, .array(let pair)):
            guard pair.count == 2, let registered = pair[0].boolValue, let renter = pair[1].stringValue else { return nil }
            return .car(CarInfo(registered: registered, renter: renter))
        case (_, .string(let s)): return (try? UInt256(decimal: s)).map { .number($0) }
        default: return nil
        }
    }
}
