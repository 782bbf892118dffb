import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// Runs `blockchain_test` fixtures through the chain's block processor (``BlockProcessor``), the same path
/// a chain import takes. Per test: the genesis block must decode, its state root be the pre-state's and its
/// hash the fixture's; each block is decoded from its RLP and processed on the head; a block with
/// `expectException` must be rejected with one of the named exceptions (and nothing of it kept), any other
/// must be valid with the fixture's hash; at the end the head must be `lastblockhash` and the state
/// `postState` (or have the root `postStateHash`). One result per test, with the fork as `network` names it.
public struct BlockTestRunner: Sendable {
    /// Only tests whose name this accepts (nil: all).
    public var nameFilter: (@Sendable (String) -> Bool)?
    /// Only these forks (nil: all).
    public var forks: Set<Hardfork>?

    /// Creates a runner.
    public init(forks: Set<Hardfork>? = nil, nameFilter: (@Sendable (String) -> Bool)? = nil) {
        self.forks = forks
        self.nameFilter = nameFilter
    }

    /// Runs every test in one file.
    public func run(file: URL) -> [StateTestCaseResult] {
        let tests: [BlockTest]
        do {
            tests = try BlockTest.parseFile([UInt8](try Data(contentsOf: file)))
        } catch {
            return [
                StateTestCaseResult(
                    name: file.lastPathComponent, fork: "-", index: 0, pass: false, stateRoot: nil,
                    error: "cannot load \(file.path): \(error)", skipped: false)
            ]
        }
        return tests.sorted { $0.name < $1.name }.compactMap { test in
            if let nameFilter, !nameFilter(test.name) { return nil }
            if let forks, Hardfork(name: test.network).map({ !forks.contains($0) }) ?? true { return nil }
            return run(test)
        }
    }

    /// Runs one test.
    public func run(_ test: BlockTest) -> StateTestCaseResult {
        var result = StateTestCaseResult(
            name: test.name, fork: test.network, index: 0, pass: false, stateRoot: nil, error: nil, skipped: false)
        guard let fork = Hardfork(name: test.network) else {
            result.skipped = true
            result.error = "network \(test.network) is not a single fork (transition tests are not run)"
            return result
        }
        do throws(BlockTestFailure) {
            result.stateRoot = try execute(test, fork: fork).hexString
            result.pass = true
        } catch {
            result.error = error.description
            result.skipped = error.isUnsupported
        }
        return result
    }

    /// Imports the test's blocks; returns the final state root or why the test fails.
    func execute(_ test: BlockTest, fork: Hardfork) throws(BlockTestFailure) -> Bytes32 {
        let genesis: DecodedBlock
        do { genesis = try DecodedBlock(encoded: test.genesisRLP) } catch { throw BlockTestFailure("genesis: \(error)") }
        var state = test.pre
        let preRoot = state.stateRoot
        if preRoot != genesis.header.stateRoot {
            throw BlockTestFailure("pre-state root \(preRoot.hexString), genesis header has \(genesis.header.stateRoot.hexString)")
        }
        if genesis.hash != test.genesisHash {
            throw BlockTestFailure("genesis hash \(genesis.hash.hexString), expected \(test.genesisHash.hexString)")
        }
        var schedules: [Hardfork: BlobSchedule] = [:]
        for (name, schedule) in test.blobSchedules { if let named = Hardfork(name: name) { schedules[named] = schedule } }
        let processor = BlockProcessor(chainID: test.chainID, blobSchedules: schedules)
        var head = genesis.header
        var headHash = genesis.hash
        var hashes = [genesis.hash]
        for (index, entry) in test.blocks.enumerated() {
            let label = "block \(index + 1)"
            let outcome: Result<(WorldState, DecodedBlock), BlockValidationError>
            if let rlp = entry.rlp {
                do {
                    let block = try DecodedBlock(encoded: rlp)
                    let known = hashes
                    let (next, _) = try processor.process(
                        block, parent: head, parentHash: headHash, fork: fork, state: state,
                        blockHashes: { n in n < UInt64(known.count) ? known[Int(n)] : .zero })
                    outcome = .success((next, block))
                } catch {
                    outcome = .failure(error)
                }
            } else {
                outcome = .failure(.malformedBlock("the rlp is not hex"))
            }
            switch (outcome, entry.expectException) {
            case (.success(let (next, block)), nil):
                if let expected = entry.hash, expected != block.hash {
                    throw BlockTestFailure("\(label): hash \(block.hash.hexString), expected \(expected.hexString)")
                }
                state = next
                head = block.header
                headHash = block.hash
                hashes.append(block.hash)
            case (.success, .some(let expected)):
                throw BlockTestFailure("\(label): expected \(expected), but the block was accepted")
            case (.failure(let error), nil):
                if case .unsupported = error { throw BlockTestFailure("\(label): \(error)", unsupported: true) }
                throw BlockTestFailure("\(label) rejected: \(error)")
            case (.failure(let error), .some(let expected)):
                let names = Self.exceptionNames(error)
                guard StateTestRunner.matches(expected, names) else {
                    throw BlockTestFailure("\(label): expected \(expected), rejected with \(error)")
                }
            }
        }
        if headHash != test.lastBlockHash {
            throw BlockTestFailure("last block hash \(headHash.hexString), expected \(test.lastBlockHash.hexString)")
        }
        let root = state.stateRoot
        if let expected = test.postState, expected != state {
            throw BlockTestFailure("post state differs: \(Self.firstDifference(state, expected))")
        }
        if let expected = test.postStateHash, expected != root {
            throw BlockTestFailure("post state root \(root.hexString), expected \(expected.hexString)")
        }
        return root
    }

    /// The first account that differs between two states, for the failure line.
    static func firstDifference(_ actual: WorldState, _ expected: WorldState) -> String {
        let addresses = Set(actual.accounts.keys).union(expected.accounts.keys).sorted { $0.lowercasedHex < $1.lowercasedHex }
        for address in addresses {
            let a = actual[address], e = expected[address]
            guard a != e else { continue }
            guard let a else { return "\(address.lowercasedHex) missing" }
            guard let e else { return "\(address.lowercasedHex) should not exist" }
            if a.nonce != e.nonce { return "\(address.lowercasedHex) nonce \(a.nonce), expected \(e.nonce)" }
            if a.balance != e.balance { return "\(address.lowercasedHex) balance \(a.balance), expected \(e.balance)" }
            if a.codeHash != e.codeHash { return "\(address.lowercasedHex) code differs" }
            for key in Set(a.storage.keys).union(e.storage.keys).sorted() where a.storage[key] != e.storage[key] {
                return "\(address.lowercasedHex) slot \(key.hexString) = \((a.storage[key] ?? .zero).hexString), "
                    + "expected \((e.storage[key] ?? .zero).hexString)"
            }
        }
        return "(no account differs)"
    }

    /// The names the fixtures use for a rejection: the rule's `BlockException` name, or the transaction's
    /// `TransactionException` names.
    public static func exceptionNames(_ error: BlockValidationError) -> Set<String> {
        switch error {
        case .transaction(_, let reason): return StateTestRunner.exceptionNames(reason)
        case .invalidTransaction(_, let reason): return exceptionNames(reason)
        default: return error.eestName.map { [$0] } ?? []
        }
    }

    /// `TransactionException` names for a transaction that does not decode or whose signature or
    /// static checks fail.
    static func exceptionNames(_ error: TransactionError) -> Set<String> {
        let name: String
        switch error {
        case .missingRecipient(let type):
            name = type == .blob ? "TYPE_3_TX_CONTRACT_CREATION" : "TYPE_4_TX_CONTRACT_CREATION"
        case .emptyAuthorizationList: name = "TYPE_4_EMPTY_AUTHORIZATION_LIST"
        case .noBlobs: name = "TYPE_3_TX_ZERO_BLOBS"
        case .tooManyBlobs: name = "TYPE_3_TX_BLOB_COUNT_EXCEEDED"
        case .invalidBlobVersionedHash: name = "TYPE_3_TX_INVALID_BLOB_VERSIONED_HASH"
        case .intrinsicGasTooLow: name = "INTRINSIC_GAS_TOO_LOW"
        case .floorGasTooLow: name = "INTRINSIC_GAS_BELOW_FLOOR_GAS_COST"
        case .initcodeTooLarge: name = "INITCODE_SIZE_EXCEEDED"
        case .nonceTooBig: name = "NONCE_IS_MAX"
        case .gasLimitAboveCap: name = "GAS_LIMIT_EXCEEDS_MAXIMUM"
        case .priorityFeeAboveMaxFee: name = "PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS"
        case .gasLimitPriceProductOverflow: name = "INSUFFICIENT_ACCOUNT_FUNDS"
        case .typeNotSupported: name = "TYPE_NOT_SUPPORTED"
        case .invalidChainID: name = "INVALID_CHAINID"
        case .invalidV, .invalidYParity, .invalidSignatureScalars, .highS, .recoveryFailed: name = "INVALID_SIGNATURE_VRS"
        case .malformed(_, .to?, let type) where type == .blob || type == .setCode:
            // A blob or set-code envelope with an empty `to` cannot create a contract (EIP-4844, EIP-7702).
            name = type == .blob ? "TYPE_3_TX_CONTRACT_CREATION" : "TYPE_4_TX_CONTRACT_CREATION"
        case .empty, .unknownType, .notAList, .malformed, .sidecarNotSupported:
            return ["TransactionException.RLP_INVALID_VALUE", "BlockException.RLP_STRUCTURES_ENCODING"]
        }
        return ["TransactionException." + name]
    }
}

/// Why a block test fails (or, with `isUnsupported`, could not run).
struct BlockTestFailure: Error, CustomStringConvertible {
    let description: String
    let isUnsupported: Bool
    init(_ description: String, unsupported: Bool = false) {
        self.description = description
        self.isUnsupported = unsupported
    }
}
