import EthereumABI
import EthereumPrimitives
import EthereumRPC
import EthereumWire

// The dynamic API: functions and events named by string, arguments and results as ABIValue, for when the ABI is
// known at run time only (`contract.call("balanceOf", [.address(a)])`). A name with parentheses is a signature
// (`"transfer(address,uint256)"`, spaces and parameter names allowed) and picks one overload; a bare name must
// be unique in the ABI, or unique among the overloads taking that many arguments.

extension Contract {
    /// The function a name or signature picks for `argumentCount` arguments (see ``EthereumABI/ContractABI/resolveFunction(_:argumentCount:)``).
    public func function(_ nameOrSignature: String, argumentCount: Int? = nil) throws(ContractError) -> ABIFunction {
        try abi.resolveFunction(nameOrSignature, argumentCount: argumentCount)
    }

    /// The event a name or signature picks (see ``EthereumABI/ContractABI/resolveEvent(_:)``).
    public func event(_ nameOrSignature: String) throws(ContractError) -> ABIEvent {
        try abi.resolveEvent(nameOrSignature)
    }

    /// The prepared call of a function named at run time.
    public func prepare(_ nameOrSignature: String, _ arguments: [ABIValue], value: UInt256 = .zero) throws(ContractError) -> ContractCall<[ABIValue]> {
        try ContractCall(try function(nameOrSignature, argumentCount: arguments.count), arguments, value: value)
    }

    /// Calls a function named at run time; its return values as decoded.
    public func call(_ nameOrSignature: String, _ arguments: [ABIValue] = [], options: CallOptions = .latest) async throws -> [ABIValue] {
        try await call(try prepare(nameOrSignature, arguments), options: options)
    }

    /// Sends a transaction calling a function named at run time.
    @discardableResult
    public func send(
        _ nameOrSignature: String, _ arguments: [ABIValue] = [], options: TransactOptions = .default
    ) async throws -> ContractReceipt {
        try await send(try prepare(nameOrSignature, arguments), options: options)
    }

    /// The gas a transaction calling a function named at run time would need.
    public func estimateGas(_ nameOrSignature: String, _ arguments: [ABIValue] = [], options: TransactOptions = .default) async throws -> UInt64 {
        try await estimateGas(try prepare(nameOrSignature, arguments), options: options)
    }

    /// This contract's logs in a block range, decoded with its ABI: of one event (`event` names it, `indexed` filters
    /// its indexed parameters as ``EventFilter/init(event:indexed:)`` does), or of every event (nil). Logs of events not
    /// in the ABI are returned undecoded.
    public func logs(
        event nameOrSignature: String? = nil, indexed: [[ABIValue]?] = [], fromBlock: BlockTag = .earliest, toBlock: BlockTag = .latest
    ) async throws -> [DecodedLog] {
        var filter = LogFilter(fromBlock: fromBlock, toBlock: toBlock, addresses: [address])
        var only: ABIEvent?
        if let nameOrSignature {
            let event = try abi.resolveEvent(nameOrSignature)
            filter.topics = try EventFilter<DynamicEvent>(event: event, indexed: indexed).topics
            only = event
        } else if !indexed.isEmpty {
            throw ContractError.notInABI("filtering by indexed values needs an event")
        }
        var out: [DecodedLog] = []
        for log in try await backend.logs(filter) {
            var decoded: ABIDecodedLog?
            do throws(ABIError) {
                if let only { decoded = try only.decodeLog(topics: log.topics, data: log.data) } else { decoded = try abi.decodeLog(topics: log.topics, data: log.data) }
            } catch .noMatch {
                decoded = nil
            } catch {
                throw ContractError.unexpectedData(what: "log \(log.logIndex.map(String.init) ?? "?") of block \(log.blockNumber.map(String.init) ?? "?")", reason: "\(error)")
            }
            out.append(DecodedLog(log: log, decoded: decoded))
        }
        return out
    }
}

extension ContractABI {
    /// The function a name or signature picks for `argumentCount` arguments: a signature (with parentheses) must be
    /// in the ABI; a bare name must be unique, or unique among the overloads taking `argumentCount` arguments.
    public func resolveFunction(_ nameOrSignature: String, argumentCount: Int? = nil) throws(ContractError) -> ABIFunction {
        // A canonical signature or a bare name is found in the ABI's index; another signature is parsed first.
        if let found = function(signature: nameOrSignature) { return found }
        if nameOrSignature.utf8.contains(UInt8(ascii: "(")) {
            let parsed: ABIFunction
            do { parsed = try ABIFunction(signature: nameOrSignature) } catch {
                throw .notInABI("\(error)")
            }
            guard let found = function(selector: parsed.selector) else {
                throw .notInABI("the ABI has no function \(parsed.signature)")
            }
            return found
        }
        let named = functions(named: nameOrSignature)
        if named.isEmpty {
            let names = Set(functions.map(\.name)).sorted().joined(separator: ", ")
            throw .notInABI("the ABI has no function \(String(reflecting: nameOrSignature)) (it has: \(names.isEmpty ? "none" : names))")
        }
        if named.count == 1 { return named[0] }
        let fitting = argumentCount.map { count in named.filter { $0.inputs.count == count } } ?? named
        if fitting.count == 1 { return fitting[0] }
        throw .notInABI(
            "\(nameOrSignature) is overloaded: name one by its signature ("
                + named.map(\.signature).joined(separator: ", ") + ")")
    }

    /// The event a name or signature picks (`"Transfer"`, `"Transfer(address,address,uint256)"`).
    public func resolveEvent(_ nameOrSignature: String) throws(ContractError) -> ABIEvent {
        if nameOrSignature.utf8.contains(UInt8(ascii: "(")) {
            let parsed = (try? ABIEvent(signature: nameOrSignature)) ?? (try? ABIEvent(signature: "event " + nameOrSignature))
            guard let parsed else { throw .notInABI("\(String(reflecting: nameOrSignature)) is not an event signature") }
            guard let found = events.first(where: { $0.signature == parsed.signature }) else {
                throw .notInABI("the ABI has no event \(parsed.signature)")
            }
            return found
        }
        let named = events.filter { $0.name == nameOrSignature }
        guard let first = named.first else {
            let names = events.map(\.name).joined(separator: ", ")
            throw .notInABI("the ABI has no event \(String(reflecting: nameOrSignature)) (it has: \(names.isEmpty ? "none" : names))")
        }
        guard named.count == 1 else {
            throw .notInABI("\(nameOrSignature) is overloaded: name one by its signature (" + named.map(\.signature).joined(separator: ", ") + ")")
        }
        return first
    }
}

/// A log as the node returned it, with its decoding (nil when no event of the ABI matches it).
public struct DecodedLog: Sendable, Hashable {
    /// The log, with its block, transaction and index.
    public var log: RPCLog
    /// The event and its values.
    public var decoded: ABIDecodedLog?

    public init(log: RPCLog, decoded: ABIDecodedLog?) {
        self.log = log
        self.decoded = decoded
    }
}
