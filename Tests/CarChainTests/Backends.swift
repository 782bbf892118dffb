import CarChain
import EthereumABI
import EthereumPrimitives
import Foundation
import TestSupport

/// A test double that implements calls and sends only (what the CarChain binding uses); the rest of ContractBackend
/// follows from them.
protocol CallAndSendDouble: ContractBackend {
    func call(to: Address, data: [UInt8], from: Address?) async throws -> CallOutcome
    func send(to: Address?, data: [UInt8], value: UInt256, from: Address?) async throws -> TransactionOutcome
}

extension CallAndSendDouble {
    func chainID() async throws -> UInt64 { 1337 }

    func call(_ request: CallRequest, at block: BlockTag) async throws -> CallOutcome {
        try await call(to: request.to ?? .zero, data: request.data ?? [], from: request.from)
    }

    /// The doubles send with a fixed limit; nothing here estimates.
    func estimateGas(_ request: CallRequest, at block: BlockTag) async throws -> GasEstimate { .gas(1_000_000) }

    func send(_ request: TransactionRequest, from: Address?) async throws -> TransactionOutcome {
        try await send(to: request.to, data: request.data, value: request.value, from: from)
    }

    /// The doubles keep no log index; the binding reads events from receipts.
    func logs(_ filter: LogFilter) async throws -> [RPCLog] { [] }

    func code(at address: Address, block: BlockTag) async throws -> [UInt8] { [0x00] }
}

/// A ContractBackend that runs CarChainModel instead of bytecode: calldata in, ABI-encoded results,
/// logs and revert data out. It tests the binding without an EVM.
actor ModelBackend: CallAndSendDouble {
    private(set) var model: CarChainModel?
    let sender: Address
    nonisolated var defaultSender: Address? { sender }
    let contractAddress = Address(bytes: [UInt8](repeating: 0xcc, count: 20)) ?? .zero
    private var blockNumber: UInt64 = 0
    private let abi = CarChainArtifact.project.abi

    init(defaultSender: Address) { self.sender = defaultSender }

    func call(to: Address, data: [UInt8], from: Address?) async throws -> CallOutcome {
        guard let model, to == contractAddress, let selector = ABISelector(prefixOf: data), let f = abi.function(selector: selector),
            let args = try? f.decodeCall(data)
        else { return .reverted(RevertReason.encodeError("unknown function")) }
        let text = args.first?.stringValue ?? ""
        let query: CarChainQuery
        switch f.name {
        case "getUserCredit": query = .getUserCredit(userId: text)
        case "getUserCar": query = .getUserCar(userId: text)
        case "isUserRegistered": query = .isUserRegistered(userId: text)
        case "getUserAccount": query = .getUserAccount(userId: text)
        case "getCar": query = .getCar(plate: text)
        case "registeredUsers": query = .registeredUsers
        case "registeredCars": query = .registeredCars
        case "rentedCars": query = .rentedCars
        case "availableCars": query = .availableCars
        case "minimumRentCredit": query = .minimumRentCredit
        case "manager": query = .manager
        default: return .reverted([])  // a transaction function called as a view: not needed here
        }
        guard let result = model.read(query) else { return .reverted([]) }
        let values: [ABIValue]
        switch result {
        case .number(let n): values = [.uint(n)]
        case .text(let s): values = [.string(s)]
        case .flag(let b): values = [.bool(b)]
        case .account(let a): values = [.address(a)]
        case .car(let c): values = [.bool(c.registered), .string(c.renter)]
        }
        return .returned(try f.encodeOutput(values))
    }

    func send(to: Address?, data: [UInt8], value: UInt256, from: Address?) async throws -> TransactionOutcome {
        blockNumber += 1
        let sender = from ?? self.sender
        func outcome(_ ok: Bool, logs: [TransactionLog] = [], revert: [UInt8]? = nil, created: Address? = nil) -> TransactionOutcome {
            TransactionOutcome(
                succeeded: ok, transactionHash: Keccak256.hash(data + UInt256(blockNumber).bigEndianBytes), blockNumber: blockNumber,
                gasUsed: 21_000, effectiveGasPrice: 1, logs: logs, revertData: revert, contractAddress: created)
        }
        guard let to else {
            model = CarChainModel(manager: sender)
            return outcome(true, created: contractAddress)
        }
        guard var model, to == contractAddress, let selector = ABISelector(prefixOf: data), let f = abi.function(selector: selector),
            let args = try? f.decodeCall(data)
        else { return outcome(false, revert: RevertReason.encodeError("unknown function")) }
        let s0 = args.first?.stringValue ?? ""
        let s1 = args.count > 1 ? args[1].stringValue ?? "" : ""
        let operation: CarChainOperation
        switch f.name {
        case "registerNewUser": operation = .registerNewUser(userId: s0)
        case "registerNewCar": operation = .registerNewCar(plate: s0)
        case "addCredit": operation = .addCredit(userId: s0, credit: args[1].uintValue ?? 0)
        case "rentCar": operation = .rentCar(plate: s0, userId: s1)
        case "returnCar": operation = .returnCar(plate: s0, userId: s1)
        default: return outcome(false, revert: [])
        }
        let result = model.apply(operation, from: sender, value: value)
        self.model = model
        switch result {
        case .success(let events):
            return outcome(true, logs: events.map { TransactionLog(address: contractAddress, topics: $0.log.topics, data: $0.log.data) })
        case .reverted(let reason):
            return outcome(false, revert: reason.data)
        }
    }
}

/// A ContractBackend over py-evm: tools/xcheck/carchain_ops.py --serve, one JSON line per request.
/// Transactions are signed with the sender's key (Keys.hex) and mined one per block.
actor PyEVMBackend: CallAndSendDouble {
    private let process: Process
    private let toPython: FileHandle
    private let fromPython: FileHandle
    private var buffer: [UInt8] = []
    let accounts: [Address]

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// The server picks its first account.
    nonisolated var defaultSender: Address? { nil }

    /// Starts the server, or returns nil (after printing SKIPPED) without a venv.
    static func start(what: String) throws -> PyEVMBackend? {
        guard let python = PythonVenv.python(for: what) else { return nil }
        return try PyEVMBackend(python: python)
    }

    private init(python: URL) throws {
        let process = Process()
        process.executableURL = python
        process.arguments = [TestPaths.packageRoot.appendingPathComponent("tools/xcheck/carchain_ops.py").path, "--serve"]
        process.currentDirectoryURL = TestPaths.packageRoot
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        self.process = process
        self.toPython = stdin.fileHandleForWriting
        self.fromPython = stdout.fileHandleForReading
        var buffer: [UInt8] = []
        let hello = JSONValue.object([("keys", .array(Keys.hex.map { .string($0) }))])
        try toPython.write(contentsOf: Data((hello.description + "\n").utf8))
        let answer = try PyEVMBackend.readLine(fromPython, &buffer)
        self.buffer = buffer
        accounts = (answer["accounts"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap { try? Address($0) } }
    }

    private static func readLine(_ handle: FileHandle, _ buffer: inout [UInt8]) throws -> JSONValue {
        while true {
            if let newline = buffer.firstIndex(of: 0x0a) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return try JSONValue(parsing: line)
            }
            let chunk = handle.availableData
            if chunk.isEmpty { throw Failure(description: "carchain_ops.py --serve ended") }
            buffer += chunk
        }
    }

    private func request(_ value: JSONValue) throws -> JSONValue {
        try toPython.write(contentsOf: Data((value.description + "\n").utf8))
        let answer = try PyEVMBackend.readLine(fromPython, &buffer)
        if let error = answer["error"]?.stringValue { throw Failure(description: error) }
        return answer
    }

    func stop() {
        try? toPython.close()
        if process.waitForExit(seconds: 30) == nil { process.end() }
    }

    func call(to: Address, data: [UInt8], from: Address?) async throws -> CallOutcome {
        var members: [(key: String, value: JSONValue)] = [("method", .string("call")), ("to", .string(to.lowercasedHex)), ("data", .string(Hex.encode(data)))]
        if let from { members.append(("from", .string(from.lowercasedHex))) }
        let answer = try request(.object(members))
        let output = bytes(answer["output"])
        return answer["ok"]?.boolValue == true ? .returned(output) : .reverted(output)
    }

    func send(to: Address?, data: [UInt8], value: UInt256, from: Address?) async throws -> TransactionOutcome {
        var members: [(key: String, value: JSONValue)] = [
            ("method", .string("send")), ("to", to.map { .string($0.lowercasedHex) } ?? .null),
            ("data", .string(Hex.encode(data))), ("value", .string(value.description)),
        ]
        if let from { members.append(("from", .string(from.lowercasedHex))) }
        let a = try request(.object(members))
        let ok = a["ok"]?.boolValue == true
        let logs: [TransactionLog] = (a["logs"]?.arrayValue ?? []).compactMap { log in
            guard let address = log["address"]?.stringValue.flatMap({ try? Address($0) }) else { return nil }
            let topics = (log["topics"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap { try? Bytes32(hex: $0) } }
            return TransactionLog(address: address, topics: topics, data: bytes(log["data"]))
        }
        return TransactionOutcome(
            succeeded: ok,
            transactionHash: a["txHash"]?.stringValue.flatMap { try? Bytes32(hex: $0) } ?? .zero,
            blockNumber: UInt64(a["blockNumber"]?.description ?? "") ?? 0,
            gasUsed: UInt64(a["gasUsed"]?.description ?? "") ?? 0,
            effectiveGasPrice: a["gasPrice"]?.stringValue.flatMap { try? UInt256(decimal: $0) } ?? .zero,
            logs: logs,
            revertData: ok ? nil : bytes(a["output"]),
            contractAddress: a["contractAddress"]?.stringValue.flatMap { try? Address($0) })
    }
}
