import EthereumABI
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire

/// A deployed contract: an address and an ABI over a ``ContractBackend``. Every binding is thin over it —
/// generated ones call ``call(_:options:)`` and ``send(_:options:)`` with a typed ``ContractCall``, the dynamic API
/// (`Contract+Dynamic.swift`) names functions by string when the ABI is known at run time only.
///
/// Reverts come back as ``ContractError/reverted(_:)``, their data decoded with this ABI (custom errors,
/// `Error(string)`, `Panic(uint256)`), whether a call, a gas estimate or a mined transaction reverted. Failures of
/// the backend (transport, signing, a node refusing the transaction) are thrown as the backend threw them.
public struct Contract: Sendable {
    /// The contract's address.
    public let address: Address
    /// Its ABI.
    public let abi: ContractABI
    /// Where calls and transactions go.
    public let backend: any ContractBackend

    /// Binds a deployed contract.
    public init(address: Address, abi: ContractABI, backend: any ContractBackend) {
        self.address = address
        self.abi = abi
        self.backend = backend
    }

    /// The same contract over another backend (e.g. signing as another account).
    public func with(backend: any ContractBackend) -> Contract {
        Contract(address: address, abi: abi, backend: backend)
    }

    // MARK: Calls

    /// Calls a function without a transaction (`eth_call` at `options.block`) and decodes its return values.
    public func call<Output>(_ call: ContractCall<Output>, options: CallOptions = .latest) async throws -> Output {
        let request = CallRequest(
            from: options.from ?? backend.defaultSender, to: address, gas: options.gasLimit,
            value: options.value ?? (call.value.isZero ? nil : call.value), data: call.calldata)
        switch try await backend.call(request, at: options.block) {
        case .reverted(let data):
            throw ContractError.reverted(ContractRevert(function: call.function.signature, reason: abi.decodeRevert(data), stage: .call))
        case .returned(let data):
            if data.isEmpty && !call.function.outputs.isEmpty {
                // A call to an address without code returns nothing; say so rather than "0 bytes do not decode".
                if try await backend.code(at: address, block: options.block).isEmpty { throw ContractError.noCode(address) }
            }
            return try call.decode(data)
        }
    }

    /// The gas the transaction would need, or the revert (as ``ContractError/reverted(_:)``) that stops it.
    public func estimateGas<Output>(_ call: ContractCall<Output>, options: TransactOptions = .default) async throws -> UInt64 {
        let request = CallRequest(
            from: options.from ?? backend.defaultSender, to: address, gas: options.gasLimit, value: total(call.value, options.value),
            data: call.calldata)
        switch try await backend.estimateGas(request, at: .latest) {
        case .gas(let gas): return gas
        case .reverted(let data):
            throw ContractError.reverted(ContractRevert(function: call.function.signature, reason: abi.decodeRevert(data), stage: .estimate))
        }
    }

    /// Sends a transaction calling the function and waits until it is mined. A revert — found by the backend's gas
    /// estimate before sending, or on chain — throws ``ContractError/reverted(_:)`` (for one on chain, the revert's
    /// `outcome` has the receipt).
    @discardableResult
    public func send<Output>(_ call: ContractCall<Output>, options: TransactOptions = .default) async throws -> ContractReceipt {
        let request = TransactionRequest(to: address, data: call.calldata, value: total(call.value, options.value), gasLimit: options.gasLimit)
        let outcome = try await Contract.mined(request, from: options.from, function: call.function.signature, abi: abi, backend: backend)
        return ContractReceipt(contract: self, outcome: outcome)
    }

    /// Sends a request and waits for it to be mined; a revert — found before sending or on chain — becomes
    /// ``ContractError/reverted(_:)``, decoded with `abi`.
    static func mined(
        _ request: TransactionRequest, from: Address?, function: String, abi: ContractABI, backend: any ContractBackend
    ) async throws -> TransactionOutcome {
        let outcome: TransactionOutcome
        do {
            outcome = try await backend.send(request, from: from)
        } catch let revert as RevertedBeforeSending {
            throw ContractError.reverted(ContractRevert(function: function, reason: abi.decodeRevert(revert.data), stage: .estimate))
        } catch let error as SendError {
            guard let revert = error.revert else { throw error }
            throw ContractError.reverted(ContractRevert(function: function, reason: abi.decodeRevert(revert.data), stage: .estimate))
        }
        guard outcome.succeeded else {
            throw ContractError.reverted(
                ContractRevert(function: function, reason: abi.decodeRevert(outcome.revertData ?? []), stage: .mined, outcome: outcome))
        }
        return outcome
    }

    private func total(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    // MARK: Events

    /// The logs of event `E` this contract emitted in a block range that pass `filter` (`eth_getLogs`).
    public func events<E: ContractEvent>(
        _ filter: EventFilter<E>, fromBlock: BlockTag = .earliest, toBlock: BlockTag = .latest
    ) async throws -> [EventLog<E>] {
        var out: [EventLog<E>] = []
        for log in try await backend.logs(filter.logFilter(address: address, fromBlock: fromBlock, toBlock: toBlock)) {
            if let event = try E(log: TransactionLog(log)) { out.append(EventLog(event: event, log: log)) }
        }
        return out
    }

    /// Every log of event `E` in a block range.
    public func events<E: ContractEvent>(_ type: E.Type, fromBlock: BlockTag = .earliest, toBlock: BlockTag = .latest) async throws -> [EventLog<E>] {
        try await events(try E.filter(), fromBlock: fromBlock, toBlock: toBlock)
    }

    /// Decodes one of this contract's logs with its ABI; nil for a log of another contract or an event not in the ABI.
    public func decode(_ log: TransactionLog) -> ABIDecodedLog? {
        guard log.address == address else { return nil }
        return try? abi.decodeLog(topics: log.topics, data: log.data)
    }

    // MARK: State

    /// True when code is deployed at the address (at `block`).
    public func isDeployed(at block: BlockTag = .latest) async throws -> Bool {
        !(try await backend.code(at: address, block: block).isEmpty)
    }
}

/// A mined, successful transaction of a ``Contract``: its outcome and its logs, decoded with the contract's ABI.
public struct ContractReceipt: Sendable {
    /// The contract the transaction called.
    public let contract: Contract
    /// The receipt.
    public let outcome: TransactionOutcome

    /// The transaction's hash.
    public var transactionHash: Bytes32 { outcome.transactionHash }
    /// The block it was mined in.
    public var blockNumber: UInt64 { outcome.blockNumber }
    /// Gas used.
    public var gasUsed: UInt64 { outcome.gasUsed }

    /// The contract's logs in the transaction, decoded with its ABI (logs of other contracts, and of events not in
    /// the ABI, are left out).
    public var decodedLogs: [ABIDecodedLog] { outcome.logs.compactMap(contract.decode) }

    /// The contract's events of type `E`, in order.
    public func events<E: ContractEvent>(_ type: E.Type) throws(ContractError) -> [E] {
        try E.all(in: outcome, emittedBy: contract.address)
    }
}

extension Contract {
    /// Sends a transaction with raw calldata (empty: a plain transfer, which runs `receive` or `fallback`) and
    /// waits until it is mined; a revert throws ``ContractError/reverted(_:)`` as ``send(_:options:)`` does.
    @discardableResult
    public func sendRaw(calldata: [UInt8], options: TransactOptions = .default) async throws -> ContractReceipt {
        let what = calldata.isEmpty ? "receive()" : "fallback()"
        let request = TransactionRequest(to: address, data: calldata, value: options.value, gasLimit: options.gasLimit)
        let outcome = try await Contract.mined(request, from: options.from, function: what, abi: abi, backend: backend)
        return ContractReceipt(contract: self, outcome: outcome)
    }
}
