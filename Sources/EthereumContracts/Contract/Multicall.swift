import EthereumABI
import EthereumPrimitives
import EthereumRPC
import EthereumWire

/// Many calls in one `eth_call`: Multicall3's `aggregate3((address,bool,bytes)[])`, which runs each call from the
/// multicall contract and returns each one's success and data. Each call is a ``ContractCall`` (from a generated
/// binding's `Calls`, or the dynamic API's ``Contract/prepare(_:_:value:)``), so each result is decoded as that call
/// says; a call that reverts gives its ``ContractError/reverted(_:)``, decoded with its contract's ABI.
///
/// ```swift
/// let multicall = Multicall(backend: backend)               // at 0xcA11bde05977b3631167028862bE2a173976CA11
/// let (balance, name) = try await multicall.aggregate3(
///     token.multicall(try Token.Calls.balanceOf(owner: alice)), token.multicall(try Token.Calls.name()))
/// let amount = try balance.get()                             // Result<UInt256, ContractError>
/// ```
///
/// A call with `allowFailure: false` that reverts makes the whole batch revert (Multicall3's `call failed`): the
/// batch throws ``ContractError/reverted(_:)`` for `aggregate3`. The calls run as `eth_call`s of the multicall
/// contract, so `msg.sender` in each is the multicall's address, not the caller's.
public struct Multicall: Sendable {
    /// Where Multicall3 is deployed on most chains (the same address everywhere, from a presigned deployment).
    public static let canonicalAddress: Address = {
        do { return try Address("0xcA11bde05977b3631167028862bE2a173976CA11") } catch { preconditionFailure("\(error)") }
    }()

    /// The part of Multicall3's ABI batching uses: `aggregate3`, plus `getEthBalance` and `getBlockNumber`.
    public static let abi = ContractABI.generated(
        #"[{"type":"function","name":"aggregate3","stateMutability":"payable","inputs":[{"name":"calls","type":"tuple[]","components":[{"name":"target","type":"address"},{"name":"allowFailure","type":"bool"},{"name":"callData","type":"bytes"}]}],"outputs":[{"name":"returnData","type":"tuple[]","components":[{"name":"success","type":"bool"},{"name":"returnData","type":"bytes"}]}]},{"type":"function","name":"getEthBalance","stateMutability":"view","inputs":[{"name":"addr","type":"address"}],"outputs":[{"name":"balance","type":"uint256"}]},{"type":"function","name":"getBlockNumber","stateMutability":"view","inputs":[],"outputs":[{"name":"blockNumber","type":"uint256"}]}]"#)

    /// The multicall contract.
    public let contract: Contract

    /// Multicall3 at `address` (default: the canonical one) over `backend`.
    public init(backend: any ContractBackend, address: Address = Multicall.canonicalAddress) {
        contract = Contract(address: address, abi: Self.abi, backend: backend)
    }

    /// The multicall contract's address.
    public var address: Address { contract.address }

    /// One call of a batch: its target, the prepared call, whether it may fail without failing the batch, and the
    /// ABI its revert data is decoded with.
    public struct Call<Output: Sendable>: Sendable {
        public var target: Address
        public var call: ContractCall<Output>
        public var allowFailure: Bool
        /// Decodes a revert (custom errors); nil: only `Error(string)` and `Panic(uint256)`.
        public var errors: ContractABI?

        public init(target: Address, call: ContractCall<Output>, allowFailure: Bool = true, errors: ContractABI? = nil) {
            self.target = target
            self.call = call
            self.allowFailure = allowFailure
            self.errors = errors
        }

        /// The `(address,bool,bytes)` tuple of `aggregate3`.
        var abiValue: ABIValue { .tuple([.address(target), .bool(allowFailure), .bytes(call.calldata)]) }

        /// What the call gave: its output decoded, or its revert.
        func result(success: Bool, data: [UInt8]) -> Result<Output, ContractError> {
            guard success else {
                let reason = errors?.decodeRevert(data) ?? RevertReason(data: data)
                return .failure(.reverted(ContractRevert(function: call.function.signature, reason: reason, stage: .call)))
            }
            do throws(ContractError) { return .success(try call.decode(data)) } catch { return .failure(error) }
        }
    }

    /// Calls of one output type in one `eth_call`; the results in the calls' order.
    public func aggregate3<Output: Sendable>(_ calls: [Call<Output>], options: CallOptions = .latest) async throws -> [Result<Output, ContractError>] {
        let answers = try await run(calls.map(\.abiValue), options: options)
        return zip(calls, answers).map { $0.result(success: $1.success, data: $1.data) }
    }

    /// Calls of different output types in one `eth_call`; a tuple of their results, in order.
    public func aggregate3<each Output: Sendable>(
        _ calls: repeat Call<each Output>, options: CallOptions = .latest
    ) async throws -> (repeat Result<each Output, ContractError>) {
        var encoded: [ABIValue] = []
        for call in repeat each calls { encoded.append(call.abiValue) }
        let answers = Answers(try await run(encoded, options: options))
        return (repeat answers.next(for: each calls))
    }

    /// The answers of a batch, taken in order by the calls of a parameter pack.
    private final class Answers: @unchecked Sendable {  // used by one expression at a time
        private let answers: [(success: Bool, data: [UInt8])]
        private var index = 0

        init(_ answers: [(success: Bool, data: [UInt8])]) { self.answers = answers }

        func next<Output: Sendable>(for call: Call<Output>) -> Result<Output, ContractError> {
            defer { index += 1 }
            return call.result(success: answers[index].success, data: answers[index].data)
        }
    }

    /// Runs `aggregate3` and reads one `(bool,bytes)` per call (exactly as many as were sent).
    private func run(_ calls: [ABIValue], options: CallOptions) async throws -> [(success: Bool, data: [UInt8])] {
        guard !calls.isEmpty else { return [] }
        let function = try contract.function("aggregate3")
        let values: [ABIValue]
        do {
            values = try await contract.call(try ContractCall(function, [.array(calls)]), options: options)
        } catch ContractError.noCode(let address) {
            throw ContractError.notInABI(
                "no Multicall3 at \(address.checksummed) on this chain: deploy one, or pass its address to Multicall(backend:address:)")
        }
        guard case .array(let items)? = values.first, items.count == calls.count else {
            throw ContractError.unexpectedData(what: "aggregate3", reason: "expected \(calls.count) results, got \(values.first.map { "\($0)" } ?? "none")")
        }
        var out: [(success: Bool, data: [UInt8])] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .tuple(let fields) = item, fields.count == 2, case .bool(let success) = fields[0], case .bytes(let data) = fields[1] else {
                throw ContractError.unexpectedData(what: "aggregate3 result \(i)", reason: "expected (bool,bytes), got \(item)")
            }
            out.append((success, data))
        }
        return out
    }

    /// The balance of `account` read inside the batch's block (Multicall3's `getEthBalance`), as a call to batch.
    public func ethBalance(of account: Address) throws(ContractError) -> Call<UInt256> {
        let call = try ContractCall(try contract.function("getEthBalance"), [.address(account)]) { values throws(ContractError) in
            guard case .uint(let balance)? = values.first else { throw .unexpectedData(what: "getEthBalance", reason: "expected a uint256") }
            return balance
        }
        return Call(target: address, call: call, allowFailure: false, errors: Self.abi)
    }
}

extension Contract {
    /// `call` on this contract, for a ``Multicall`` batch (its revert decoded with this contract's ABI).
    public func multicall<Output: Sendable>(_ call: ContractCall<Output>, allowFailure: Bool = true) -> Multicall.Call<Output> {
        Multicall.Call(target: address, call: call, allowFailure: allowFailure, errors: abi)
    }
}
