import Chain
import EthereumABI
import EthereumContracts
import EthereumContractsLocal
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import EthereumWire
import Synchronization

/// A deterministic in-process chain for contract tests (XCTest or Swift Testing): a ``ContractBackend`` that generated
/// bindings deploy and call through, plus Foundry's cheatcodes as Swift calls (docs/TESTING.md).
///
/// Underneath is a ``DevChain`` in memory with the deterministic configuration (the test mnemonic's funded accounts,
/// one second per block, automining) driven through ``DevChainBackend``; the cheatcodes are the chain's own dev
/// controls (balances, code, nonces, storage, time, snapshots, impersonation). What a test bench adds:
///
/// - **Gas is free.** The base fee starts at 0 and transactions pay the base fee (0 unless a block passes its gas
///   target), so balances move only by the value sent, and a pranked address needs no ether.
/// - **Any address sends.** The chain impersonates every address, so ``prank(_:_:)`` and ``startPrank(_:)`` make
///   transactions and calls come from any address, with or without a key.
/// - **Nothing is signed.** As in forge, a transaction is sent as its sender, the dev accounts' included: it carries
///   anvil's impersonation signature (r = 1, s = the sender), not an ECDSA one, so its hash differs from the one a
///   node would give the same transaction signed; its gas does not.
/// - **Failed transactions are mined.** Transactions carry a fixed gas limit (``transactionGasLimit``) instead of an
///   estimate, so a reverting call is mined and fails with a receipt: its revert is decoded by the binding
///   (`ContractError.reverted`, stage `.mined`) and ``callTrace(_:)`` shows where it failed.
/// - **Every transaction is recorded** with its gas: ``gasReport()``, ``gasSnapshot()``, ``measureGas(_:)``, and the
///   logs ``recordLogs()`` asks for.
public final class TestChain: ContractBackend, Sendable {
    /// The chain (for anything the bench does not wrap).
    public let chain: DevChain
    /// The in-process backend transactions go through.
    public let backend: DevChainBackend
    /// The fixed gas limit of every transaction and deployment (below EIP-7825's 2^24 cap).
    public static let transactionGasLimit: UInt64 = 16_000_000

    let state = Mutex(State())

    struct State {
        var prank: Prank?
        var labels: [Address: Label] = [:]
        var recording: [TransactionLog]?
        var transactions: [RecordedTransaction] = []
    }

    struct Prank {
        var sender: Address
        /// True for ``TestChain/prank(_:_:)`` (one body), false for ``TestChain/startPrank(_:)``.
        var scoped: Bool
    }

    /// A name (and an ABI to decode with) given to an address.
    public struct Label: Sendable, Hashable {
        public var name: String
        public var abi: ContractABI?
    }

    /// A new chain in memory. `hardfork` nil takes the dev chain's default.
    public convenience init(hardfork: Hardfork? = nil) async throws { try await self.init(hardfork: hardfork, fork: nil) }

    /// A new chain in memory, continuing `fork`'s remote block when given (TestChain+Fork.swift).
    init(hardfork: Hardfork?, fork: ForkCache?) async throws {
        var config = ChainConfig.deterministic()
        config.initialBaseFee = .zero
        if let hardfork { config.hardfork = hardfork }
        // A fork runs the rules its block's header implies, `hardfork` at most.
        if fork != nil { config.keepsStoredHardfork = true }
        let chain: DevChain
        do throws(ChainError) { chain = try await DevChain(config: config, storage: .memory, fork: fork) } catch {
            throw DevChainBackendError.chain(error)
        }
        try await TestChain.setUp(chain)
        self.chain = chain
        var backend = try DevChainBackend(
            chain: chain, deploymentGasLimit: Self.transactionGasLimit, callGasLimit: Self.transactionGasLimit)
        backend.gasPriceAtBaseFee = true  // the base fee of the transaction's block (zero while blocks are not full)
        backend.sendsUnsigned = true  // every address is impersonated: no ECDSA signature to make, as in forge
        self.backend = backend
        state.withLock { state in
            for (index, address) in chain.accounts.enumerated() { state.labels[address] = Label(name: "account\(index)", abi: nil) }
        }
    }

    /// What the bench changes on its chain (again after ``rollFork(to:)``): every address sends, and on a fork gas is
    /// free too (the fork block's base fee is the remote's; the next block's is zero, and stays so while blocks are
    /// not full).
    static func setUp(_ chain: DevChain) async throws {
        await chain.setAutoImpersonate(true)
        if chain.forkCache != nil, chain.hardfork >= .london {
            do throws(ChainError) { try await chain.setNextBlockBaseFee(.zero) } catch { throw DevChainBackendError.chain(error) }
        }
    }

    /// Closes the chain.
    public func close() async { await chain.close() }

    /// The funded dev accounts (10,000 ether each), `account0` the default sender.
    public var accounts: [Address] { chain.accounts }

    /// The hardfork the chain runs.
    public var hardfork: Hardfork { chain.hardfork }

    // MARK: ContractBackend

    /// The pranked address while a prank is on, else the first dev account.
    public var defaultSender: Address? { state.withLock { $0.prank?.sender } ?? backend.defaultSender }

    public func chainID() async throws -> UInt64 { chain.chainId }

    public func call(_ request: CallRequest, at block: BlockTag) async throws -> CallOutcome {
        try await backend.call(request, at: block)
    }

    public func estimateGas(_ request: CallRequest, at block: BlockTag) async throws -> GasEstimate {
        try await backend.estimateGas(request, at: block)
    }

    public func send(_ request: TransactionRequest, from: Address?) async throws -> EthereumContracts.TransactionOutcome {
        guard let sender = from ?? defaultSender else { throw DevChainBackendError.noSender }
        let outcome = try await backend.send(request, from: sender)
        state.withLock { state in
            state.transactions.append(RecordedTransaction(request: request, sender: sender, outcome: outcome))
            if state.recording != nil { state.recording?.append(contentsOf: outcome.logs) }
        }
        return outcome
    }

    public func logs(_ filter: EthereumWire.LogFilter) async throws -> [RPCLog] { try await backend.logs(filter) }

    public func code(at address: Address, block: BlockTag) async throws -> [UInt8] {
        try await backend.code(at: address, block: block)
    }

    // MARK: Labels

    /// Names an address in traces, gas reports and failures; with `abi`, its calls, events and reverts are decoded.
    public func label(_ address: Address, _ name: String, abi: ContractABI? = nil) {
        state.withLock { $0.labels[address] = Label(name: name, abi: abi) }
    }

    /// The label of an address, if it has one.
    public func label(of address: Address) -> Label? { state.withLock { $0.labels[address] } }

    /// The label's name, else the checksummed address.
    public func name(of address: Address) -> String { label(of: address)?.name ?? address.checksummed }

    /// A deterministic address for `name` (the last 20 bytes of keccak256(name), as forge's `makeAddr`), labelled
    /// `name`. It has no key and no ether: ``deal(_:_:)`` funds it, ``prank(_:_:)`` sends from it.
    public func makeAddress(_ name: String) -> Address {
        let address = Address(bytes32: Keccak256.hash(Array(name.utf8)))
        label(address, name)
        return address
    }
}

/// A transaction the bench sent, with its outcome (for gas reports and traces).
public struct RecordedTransaction: Sendable {
    /// What was sent (`to` nil: a deployment).
    public var request: TransactionRequest
    /// Who sent it.
    public var sender: Address
    /// Its receipt.
    public var outcome: EthereumContracts.TransactionOutcome
}
