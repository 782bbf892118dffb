import EVM
import EthereumPrimitives

/// The calls the protocol makes at the edges of a block, from SYSTEM_ADDRESS with 30,000,000 gas that the
/// block does not pay for: EIP-4788's beacon roots (Cancun) and EIP-2935's block hashes (Prague) before
/// the transactions, EIP-7002's withdrawal and EIP-7251's consolidation request queues (Prague) after them.
/// Both the block processor and the dev chain's miner run them from here.
public enum SystemCalls {
    /// EIP-4788's and EIP-2935's SYSTEM_ADDRESS: the caller; never touched, charged or created.
    public static let systemAddress = address("fffffffffffffffffffffffffffffffffffffffe")
    /// EIP-4788's BEACON_ROOTS_ADDRESS.
    public static let beaconRoots = address("000f3df6d732807ef1319fb7b8bb8522d0beac02")
    /// EIP-2935's HISTORY_STORAGE_ADDRESS.
    public static let historyStorage = address("0000f90827f1c53a10cb7a02335b175320002935")
    /// EIP-7002's WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS.
    public static let withdrawalRequests = address("00000961ef480eb55e80d19ad83579a64c007002")
    /// EIP-7251's CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS.
    public static let consolidationRequests = address("0000bbddc7ce488642fb579f8b00f3a590007251")
    /// SYSTEM_TRANSACTION_GAS.
    public static let gas: Int64 = 30_000_000

    /// The calls made before the block's transactions: from Cancun the parent beacon block root into the
    /// EIP-4788 contract, from Prague the parent hash into the EIP-2935 history contract. A contract without
    /// code makes the call a no-op (both EIPs).
    public static func beginBlock(
        parentHash: Bytes32, parentBeaconBlockRoot: Bytes32?, in journaled: inout JournaledState, block: BlockEnvironment,
        fork: Hardfork
    ) {
        let rules = ForkRules(fork)
        // The native writes of both calls end as one transaction would (they touch no other account); a call through
        // the interpreter starts from a finished one.
        var unfinished = false
        if fork >= .cancun, let root = parentBeaconBlockRoot {
            if recordBeaconRoot(root, in: &journaled, block: block) {
                unfinished = true
            } else {
                _ = call(beaconRoots, input: root.bytes, in: &journaled, block: block, rules: rules)
            }
        }
        if fork >= .prague {
            if recordParentHash(parentHash, in: &journaled, block: block) {
                unfinished = true
            } else {
                if unfinished { journaled.finalize(rules: rules) }
                unfinished = false
                _ = call(historyStorage, input: parentHash.bytes, in: &journaled, block: block, rules: rules)
            }
        }
        if unfinished { journaled.finalize(rules: rules) }
    }

    // MARK: The system contracts' system-call paths without the interpreter
    //
    // Every block runs these calls, and on a dev chain automining one transaction per block they cost more than the
    // transaction. Where the account holds the EIP's own code (``SystemContracts``), what that code does when
    // SYSTEM_ADDRESS calls it is a few storage writes, made here through the same journal (so the block's recorded
    // changes are the same); any other code goes through the interpreter. SystemCallTests checks both paths give
    // the same state and changes.

    static let beaconRootsCodeHash = Keccak256.hash(SystemContracts.beaconRootsCode)
    static let historyStorageCodeHash = Keccak256.hash(SystemContracts.historyStorageCode)
    static let withdrawalRequestsCodeHash = Keccak256.hash(SystemContracts.withdrawalRequestsCode)
    static let consolidationRequestsCodeHash = Keccak256.hash(SystemContracts.consolidationRequestsCode)
    /// HISTORY_BUFFER_LENGTH (EIP-4788) and HISTORY_SERVE_WINDOW (EIP-2935): 8191 slots.
    static let ringLength: UInt64 = 8191

    /// EIP-4788's `set`: `timestamp % 8191` ← timestamp, `timestamp % 8191 + 8191` ← the root, left for the caller
    /// to finalize. False (nothing done) when the contract holds other code.
    static func recordBeaconRoot(_ root: Bytes32, in journaled: inout JournaledState, block: BlockEnvironment) -> Bool {
        guard journaled.codeHash(at: beaconRoots) == beaconRootsCodeHash else { return false }
        let index = block.timestamp % ringLength
        journaled.setStorage(beaconRoots, UInt256(index), UInt256(block.timestamp))
        journaled.setStorage(beaconRoots, UInt256(index + ringLength), UInt256(root))
        return true
    }

    /// EIP-2935's `set`: `(number - 1) % 8191` ← the parent hash, left for the caller to finalize. False (nothing
    /// done) when the contract holds other code, or for block 0 (which has no parent, and no system call).
    static func recordParentHash(_ parentHash: Bytes32, in journaled: inout JournaledState, block: BlockEnvironment) -> Bool {
        guard block.number > 0, journaled.codeHash(at: historyStorage) == historyStorageCodeHash else { return false }
        journaled.setStorage(historyStorage, UInt256((block.number - 1) % ringLength), UInt256(parentHash))
        return true
    }

    /// True when the EIP-7002 or EIP-7251 queue at `contract` holds its EIP's code and its four state slots (excess,
    /// count, head, tail) are zero: the system call then dequeues nothing and writes every slot back unchanged, so
    /// it has no effect and returns nothing.
    static func queueIsIdle(_ contract: Address, in journaled: JournaledState) -> Bool {
        let expected = contract == withdrawalRequests ? withdrawalRequestsCodeHash : consolidationRequestsCodeHash
        guard contract == withdrawalRequests || contract == consolidationRequests,
            journaled.codeHash(at: contract) == expected
        else { return false }
        for slot in 0..<4 as Range<UInt64> where !journaled.storage(contract, UInt256(slot)).isZero { return false }
        return true
    }

    /// Calls a request-queue contract (EIP-7002, EIP-7251) and returns its output, the requests it
    /// dequeued. Unlike the start-of-block calls these must run: a contract without code, or a call that
    /// fails, makes the block invalid.
    public static func dequeueRequests(
        from contract: Address, in journaled: inout JournaledState, block: BlockEnvironment, fork: Hardfork
    ) throws(BlockValidationError) -> [UInt8] {
        if journaled.code(at: contract).isEmpty { throw .systemContractEmpty(contract) }
        if queueIsIdle(contract, in: journaled) { return [] }
        let result = call(contract, input: [], in: &journaled, block: block, rules: ForkRules(fork))
        guard result.status == .stop || result.status == .returned else { throw .systemContractCallFailed(contract) }
        return result.output
    }

    /// One system call: a value-less call from ``systemAddress`` with ``gas``, its logs dropped and the
    /// transaction ended (EIP-161 clean-up), as geth's `ProcessBeaconBlockRoot` does. The callee starts warm.
    static func call(
        _ contract: Address, input: [UInt8], in journaled: inout JournaledState, block: BlockEnvironment, rules: ForkRules
    ) -> ExecutionResult {
        journaled.prewarm(contract)
        var tracer = NoTracer()
        let result = MessageExecution.run(
            .call(from: systemAddress, to: contract, value: .zero, input: input, gas: gas), in: &journaled, rules: rules,
            block: block, transaction: TransactionEnvironment(origin: systemAddress, gasPrice: block.baseFee, blobHashes: []),
            tracer: &tracer, buffers: ExecutionBuffers())
        _ = journaled.takeLogs()
        journaled.finalize(rules: rules)
        return result
    }

    private static func address(_ hex: String) -> Address { (try? Address("0x" + hex)) ?? .zero }
}
