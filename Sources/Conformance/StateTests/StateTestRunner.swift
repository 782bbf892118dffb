import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// The result of one post entry of a state test, for one fork.
public struct StateTestCaseResult: Sendable, Encodable, Equatable {
    /// The test's name.
    public var name: String
    /// The fork name as the file writes it.
    public var fork: String
    /// The post entry's position in the fork's list.
    public var index: Int
    /// True when the post-state root and logs hash match (or an expected exception occurred).
    public var pass: Bool
    /// The state root computed (nil when the case was skipped).
    public var stateRoot: String?
    /// What differed, or why the case was skipped.
    public var error: String?
    /// True when the case was not run (unsupported fork or feature); then `pass` is false.
    public var skipped: Bool

    /// The case's label: `name[fork][index]`.
    public var label: String { "\(name)[\(fork)][\(index)]" }
}

/// Runs GeneralStateTests: for each test, fork and post entry it builds the transaction from the
/// template (sender from `secretKey`), executes it on the pre-state, and compares the state root
/// and logs hash, or checks that the expected exception occurs and the state is untouched.
public struct StateTestRunner: Sendable {
    /// Only these forks (nil: every fork in the files).
    public var forks: Set<Hardfork>?
    /// Only tests whose name this accepts (nil: all).
    public var nameFilter: (@Sendable (String) -> Bool)?
    /// Post entries of one test run at once (1: in order on the calling thread). A suite runs files in parallel, but
    /// one file can hold most of a run's work — `stTimeConsuming/CALLBlake2f_MaxRounds` is one test whose six entries
    /// (one per fork) each run BLAKE2 F for 2³²−1 rounds — and its entries then share the cores instead of making the
    /// run wait on one of them.
    public var entryJobs: Int
    /// Execution buffers shared by the threads running entries (each takes one for a case and gives it back).
    private let buffersPool = BuffersPool()

    /// Creates a runner.
    public init(forks: Set<Hardfork>? = nil, nameFilter: (@Sendable (String) -> Bool)? = nil, entryJobs: Int = 1) {
        self.forks = forks
        self.nameFilter = nameFilter
        self.entryJobs = max(1, entryJobs)
    }

    /// Every `.json` file at or under the given paths, sorted.
    public static func files(at paths: [String]) throws(StateTestFormatError) -> [URL] {
        var files: [URL] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw StateTestFormatError("no such file or directory: \(path)")
            }
            let url = URL(fileURLWithPath: path)
            if !isDirectory.boolValue {
                files.append(url)
                continue
            }
            guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in walker where file.pathExtension == "json" { files.append(file) }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Runs every test in one file.
    public func run(file: URL) -> [StateTestCaseResult] {
        let tests: [StateTest]
        do {
            tests = try StateTest.parseFile(try InputFile.read(file.path, limit: InputFile.bulkLimit))
        } catch {
            return [
                StateTestCaseResult(
                    name: file.lastPathComponent, fork: "-", index: 0, pass: false, stateRoot: nil,
                    error: "cannot load \(file.path): \(error)", skipped: false)
            ]
        }
        let buffers = ExecutionBuffers()
        return tests.flatMap { run($0, buffers: buffers) }
    }

    /// Runs every selected post entry of `test` (up to ``entryJobs`` at once; results in the file's order).
    public func run(_ test: StateTest, buffers: ExecutionBuffers = ExecutionBuffers()) -> [StateTestCaseResult] {
        if let nameFilter, !nameFilter(test.name) { return [] }
        var selected: [(fork: String, index: Int, entry: StateTest.PostEntry)] = []
        for (forkName, entries) in test.post {
            if let forks, Hardfork(name: forkName).map({ !forks.contains($0) }) ?? true { continue }
            for (index, entry) in entries.enumerated() { selected.append((forkName, index, entry)) }
        }
        let key = try? PrivateKey(bytes: test.transaction.secretKey)
        if entryJobs == 1 || selected.count < 2 {
            return selected.map { runEntry(test, $0.fork, $0.index, $0.entry, key: key, buffers: buffers) }
        }
        var results: [StateTestCaseResult] = []
        results.reserveCapacity(selected.count)
        let pool = buffersPool
        ParallelRun.forEach(selected, workers: entryJobs) { [self] item in
            let buffers = pool.take()
            defer { pool.give(buffers) }
            return runEntry(test, item.fork, item.index, item.entry, key: key, buffers: buffers)
        } completed: { _, result in
            results.append(result)
        }
        return results
    }

    /// One post entry's result.
    private func runEntry(
        _ test: StateTest, _ forkName: String, _ index: Int, _ entry: StateTest.PostEntry, key: PrivateKey?,
        buffers: ExecutionBuffers
    ) -> StateTestCaseResult {
        var result = StateTestCaseResult(
            name: test.name, fork: forkName, index: index, pass: false, stateRoot: nil, error: nil, skipped: false)
        guard let fork = Hardfork(name: forkName) else {
            result.skipped = true
            result.error = "unknown fork \(forkName)"
            return result
        }
        runCase(test, entry, fork: fork, key: key, buffers: buffers, into: &result)
        return result
    }

    private func runCase(
        _ test: StateTest, _ entry: StateTest.PostEntry, fork: Hardfork, key: PrivateKey?, buffers: ExecutionBuffers,
        into result: inout StateTestCaseResult
    ) {
        let rules = ForkRules(fork)
        var block = Self.blockEnvironment(test.environment, rules: rules)
        block.chainID = UInt256(test.chainID ?? 1)
        if let schedule = test.blobSchedules[result.fork] ?? rules.blobSchedule { block.blobSchedule = schedule }
        var journaled = JournaledState(state: test.pre, blockHashes: Self.testBlockHash)
        var logs: [Log] = []
        var failure: String?

        switch Self.transaction(test, entry, key: key) {
        case .failure(let malformed):
            if let expected = entry.expectException, Self.matches(expected, malformed.exceptionNames) {
                break
            }
            failure = "malformed transaction (\(malformed.description)), expected \(entry.expectException ?? "a valid one")"
        case .success(let signed):
            if let txbytes = entry.txbytes, txbytes != signed.encoded {
                result.error =
                    "signed transaction differs from txbytes: \(Self.firstDifference(signed.encoded, txbytes))"
                return
            }
            let tx = ExecutableTransaction(signed.transaction, sender: key?.address ?? .zero)
            do {
                var tracer = NoTracer()
                let outcome = try TransactionExecutor.execute(
                    tx, in: &journaled, block: block, fork: fork, tracer: &tracer, buffers: buffers)
                if let reason = outcome.unsupportedReason {
                    result.skipped = true
                    result.error = reason
                    return
                }
                logs = outcome.logs
                if let expected = entry.expectException {
                    failure = "expected exception \(expected), but the transaction was valid"
                }
            } catch {
                if let expected = entry.expectException {
                    if !Self.matches(expected, Self.exceptionNames(error)) {
                        failure = "expected exception \(expected), got \(error)"
                    }
                } else {
                    failure = "transaction rejected: \(error)"
                }
            }
        }
        // The fillers (geth's t8n) add a zero mining reward after the transaction, valid or not,
        // which touches the coinbase: before EIP-161 that creates it as an empty account.
        journaled.addBalance(block.coinbase, .zero)
        journaled.finalize(rules: rules)
        let root = journaled.state.stateRoot
        result.stateRoot = root.hexString
        if let failure {
            result.error = failure
            return
        }
        let logsHash = Self.logsHash(logs)
        if root != entry.hash {
            result.error = "state root \(root.hexString), expected \(entry.hash.hexString)"
        } else if logsHash != entry.logs {
            result.error = "logs hash \(logsHash.hexString), expected \(entry.logs.hexString)"
        } else {
            result.pass = true
        }
    }

    /// keccak256(rlp([[address, [topics…], data], …])).
    public static func logsHash(_ logs: [Log]) -> Bytes32 {
        let items = logs.map { log in
            RLPItem.list([.bytes(log.address.bytes), .list(log.topics.map { .bytes($0.bytes) }), .bytes(log.data)])
        }
        return Keccak256.hash(RLP.encode(.list(items)))
    }

    /// BLOCKHASH in state tests: keccak256 of the block number in decimal (geth's vmTestBlockHash).
    static let testBlockHash: @Sendable (UInt64) -> Bytes32 = { number in Keccak256.hash(String(number)) }

    /// The block environment of a test under `rules` (geth's defaults: base fee 10 when London
    /// has none, PREVRANDAO from `currentRandom`).
    static func blockEnvironment(_ env: StateTest.Environment, rules: ForkRules) -> BlockEnvironment {
        BlockEnvironment(
            coinbase: env.coinbase, number: env.number, timestamp: env.timestamp, gasLimit: env.gasLimit,
            difficulty: env.difficulty, prevRandao: env.random ?? .zero,
            baseFee: rules.baseFee ? (env.baseFee ?? UInt256(10)) : .zero,
            excessBlobGas: env.excessBlobGas ?? 0, chainID: .one)
    }

    /// A transaction the template cannot describe (a value beyond its type's range, a blob
    /// transaction without a recipient).
    struct MalformedTransaction: Error {
        let description: String
        var exceptionNames: Set<String> = ["TR_RLP_WRONGVALUE", "TransactionException.RLP_INVALID_VALUE"]
    }

    /// Builds and signs the post entry's transaction from the template: the envelope type follows
    /// the fields present (blob hashes: type 3; maxFeePerGas: type 2; an access list: type 1), typed
    /// transactions carry chain id 1 and legacy ones are unprotected, as the fillers sign them.
    static func transaction(
        _ test: StateTest, _ entry: StateTest.PostEntry, key: PrivateKey?
    ) -> Result<SignedTransaction, MalformedTransaction> {
        let t = test.transaction
        guard entry.dataIndex < t.data.count, entry.gasIndex < t.gasLimit.count, entry.valueIndex < t.value.count else {
            return .failure(MalformedTransaction(description: "index out of range"))
        }
        guard let key else { return .failure(MalformedTransaction(description: "no usable secret key")) }
        guard let gasLimit = t.gasLimit[entry.gasIndex] else {
            return .failure(MalformedTransaction(description: "gas limit beyond 64 bits"))
        }
        guard let value = t.value[entry.valueIndex] else {
            return .failure(MalformedTransaction(description: "value beyond 256 bits"))
        }
        guard let nonce = t.nonce else { return .failure(MalformedTransaction(description: "nonce beyond 64 bits")) }
        let data = t.data[entry.dataIndex]
        let accessList = t.accessLists.flatMap { entry.dataIndex < $0.count ? $0[entry.dataIndex] : nil }
        let chainID = test.chainID ?? 1
        let transaction: Transaction
        if let authorizations = t.authorizationList {
            guard let to = t.to else {
                return .failure(
                    MalformedTransaction(
                        description: "set-code transaction without recipient",
                        exceptionNames: ["TransactionException.TYPE_4_TX_CONTRACT_CREATION"]))
            }
            var list: [SignedAuthorization] = []
            for a in authorizations {
                guard let chainId = a.chainId, let nonce = a.nonce, let yParity = a.yParity, let r = a.r, let s = a.s else {
                    return .failure(MalformedTransaction(description: "authorization field beyond its wire type"))
                }
                list.append(
                    SignedAuthorization(
                        authorization: Authorization(chainId: chainId, address: a.address, nonce: nonce), yParity: yParity,
                        r: r, s: s))
            }
            transaction = .setCode(
                SetCodeTransaction(
                    chainId: chainID, nonce: nonce, maxPriorityFeePerGas: t.maxPriorityFeePerGas ?? .zero,
                    maxFeePerGas: t.maxFeePerGas ?? .zero, gasLimit: gasLimit, to: to, value: value, data: data,
                    accessList: accessList ?? [], authorizationList: list))
        } else if let hashes = t.blobVersionedHashes {
            guard let to = t.to else {
                return .failure(
                    MalformedTransaction(
                        description: "blob transaction without recipient",
                        exceptionNames: ["TR_BLOBCREATE", "TransactionException.TYPE_3_TX_CONTRACT_CREATION"]))
            }
            transaction = .blob(
                BlobTransaction(
                    chainId: chainID, nonce: nonce, maxPriorityFeePerGas: t.maxPriorityFeePerGas ?? .zero,
                    maxFeePerGas: t.maxFeePerGas ?? .zero, gasLimit: gasLimit, to: to, value: value, data: data,
                    accessList: accessList ?? [], maxFeePerBlobGas: t.maxFeePerBlobGas ?? .zero,
                    blobVersionedHashes: hashes))
        } else if let maxFee = t.maxFeePerGas {
            transaction = .dynamicFee(
                DynamicFeeTransaction(
                    chainId: chainID, nonce: nonce, maxPriorityFeePerGas: t.maxPriorityFeePerGas ?? .zero, maxFeePerGas: maxFee,
                    gasLimit: gasLimit, to: t.to, value: value, data: data, accessList: accessList ?? []))
        } else if let accessList {
            transaction = .accessList(
                AccessListTransaction(
                    chainId: chainID, nonce: nonce, gasPrice: t.gasPrice ?? .zero, gasLimit: gasLimit, to: t.to, value: value,
                    data: data, accessList: accessList))
        } else {
            // The fillers sign legacy transactions without a chain id, except execution-spec-tests,
            // which use EIP-155 with chain id 1: follow txbytes when it says so.
            let unprotected = Transaction.legacy(
                LegacyTransaction(
                    nonce: nonce, gasPrice: t.gasPrice ?? .zero, gasLimit: gasLimit, to: t.to, value: value, data: data,
                    chainId: nil))
            let signed = unprotected.sign(with: key)
            guard let txbytes = entry.txbytes, txbytes != signed.encoded else { return .success(signed) }
            transaction = .legacy(
                LegacyTransaction(
                    nonce: nonce, gasPrice: t.gasPrice ?? .zero, gasLimit: gasLimit, to: t.to, value: value, data: data,
                    chainId: chainID))
        }
        return .success(transaction.sign(with: key))
    }

    /// Where two byte strings first differ, for failure messages (never the whole of a long input).
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
        let n = zip(a, b).prefix { $0 == $1 }.count
        return "first difference at byte \(n) of \(a.count) (expected \(b.count) bytes)"
    }

    /// True when one of the `|`-separated names in `expected` is among `names`.
    static func matches(_ expected: String, _ names: Set<String>) -> Bool {
        expected.split(separator: "|").contains { names.contains($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The exception names the test suites use for a validation error (retesteth's TR_* names and
    /// execution-spec-tests' TransactionException.* names).
    static func exceptionNames(_ error: TransactionValidationError) -> Set<String> {
        switch error {
        case .typeNotSupported: return ["TR_TypeNotSupported", "TransactionException.TYPE_NOT_SUPPORTED"]
        case .nonceTooLow: return ["TR_NonceTooLow", "TransactionException.NONCE_MISMATCH_TOO_LOW"]
        case .nonceTooHigh: return ["TR_NonceTooHigh", "TransactionException.NONCE_MISMATCH_TOO_HIGH"]
        case .nonceMax: return ["TR_NonceHasMaxValue", "TransactionException.NONCE_IS_MAX"]
        case .senderNotEOA: return ["SenderNotEOA", "TR_SenderNotEOA", "TransactionException.SENDER_NOT_EOA"]
        case .tipAboveFeeCap:
            return ["TR_TipGtFeeCap", "TransactionException.PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS"]
        case .feeCapBelowBaseFee:
            return ["TR_FeeCapLessThanBlocks", "TransactionException.INSUFFICIENT_MAX_FEE_PER_GAS"]
        case .blobTransactionCreate: return ["TR_BLOBCREATE", "TransactionException.TYPE_3_TX_CONTRACT_CREATION"]
        case .noBlobs: return ["TR_EMPTYBLOB", "TransactionException.TYPE_3_TX_ZERO_BLOBS"]
        case .tooManyBlobs:
            return [
                "TR_BLOBLIST_OVERSIZE", "TransactionException.TYPE_3_TX_MAX_BLOB_GAS_ALLOWANCE_EXCEEDED",
                "TransactionException.TYPE_3_TX_BLOB_COUNT_EXCEEDED",
            ]
        case .invalidBlobVersionedHash: return ["TransactionException.TYPE_3_TX_INVALID_BLOB_VERSIONED_HASH"]
        case .blobFeeCapTooLow: return ["TransactionException.INSUFFICIENT_MAX_FEE_PER_BLOB_GAS"]
        case .insufficientFunds:
            return ["TR_NoFunds", "TR_NoFundsOrGas", "TR_NoFundsX", "TransactionException.INSUFFICIENT_ACCOUNT_FUNDS"]
        case .gasLimitExceedsBlock: return ["TR_GasLimitReached", "TransactionException.GAS_ALLOWANCE_EXCEEDED"]
        case .intrinsicGasTooLow:
            return ["TR_IntrinsicGas", "IntrinsicGas", "TransactionException.INTRINSIC_GAS_TOO_LOW"]
        case .initCodeTooLarge: return ["TR_InitCodeLimitExceeded", "TransactionException.INITCODE_SIZE_EXCEEDED"]
        case .gasLimitBelowFloor: return ["TransactionException.INTRINSIC_GAS_BELOW_FLOOR_GAS_COST"]
        case .emptyAuthorizationList: return ["TransactionException.TYPE_4_EMPTY_AUTHORIZATION_LIST"]
        case .gasLimitAboveCap: return ["TransactionException.GAS_LIMIT_EXCEEDS_MAXIMUM"]
        }
    }
}

/// Execution buffers for the threads of one runner: a thread takes a set for a case and gives it back, so buffers (and
/// their analysed-code cache) are reused across cases without two threads sharing one.
final class BuffersPool: @unchecked Sendable {
    private var free: [ExecutionBuffers] = []
    private let lock = NSLock()

    func take() -> ExecutionBuffers {
        lock.withLock { free.popLast() } ?? ExecutionBuffers()
    }

    func give(_ buffers: ExecutionBuffers) {
        lock.withLock { free.append(buffers) }
    }
}
