import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing
import TestSupport

/// ethereum/tests TransactionTests and BasicTests/txtest.json.
@Suite struct TransactionConformanceTests {
    /// The chain id the TransactionTests were filled for (mainnet).
    static let suiteChainID: UInt64 = 1

    /// Every case of every file, for every fork it lists: a valid transaction must decode, validate, and give
    /// the expected hash, sender and intrinsic gas; an invalid one must be rejected. Each (case, fork) pair is
    /// one conformance case. A rejection must carry the suite's exception name (mapped through
    /// `SuiteExceptionNames`; a different name fails the case), and when the transaction decoded and its
    /// signature was valid, the intrinsic gas must match too.
    @Test func transactionTests() throws {
        var tally = ConformanceTally(suite: "TransactionTests")
        guard let dir = ConformanceVectors.directory("TransactionTests", suite: "TransactionTests") else {
            tally.record(.skip("vectors not found"), case: "TransactionTests")
            tally.report()
            return
        }
        var nameMatches = 0
        var rejections = 0
        var mismatchedNames: [String: Int] = [:]
        var mismatchExample: [String: String] = [:]
        var rejectedGasCompared = 0
        var files = 0
        for url in ConformanceVectors.jsonFiles(under: dir) {
            let file = String(url.path.dropFirst(dir.path.count + 1))
            files += 1
            let cases: [(name: String, value: JSONValue)]
            do { cases = try ConformanceVectors.cases(in: url) } catch {
                tally.record(.fail("cannot load: \(error)"), case: file)
                continue
            }
            for (name, value) in cases {
                guard let txHex = value["txbytes"]?.stringValue, let results = value["result"]?.objectValue,
                    let raw = try? Hex.decode(txHex)
                else {
                    tally.record(.fail("no hex txbytes or no result"), case: "\(file):\(name)")
                    continue
                }
                let decoded = Result { () throws(TransactionError) in try SignedTransaction.decode(raw) }
                for (forkName, expected) in results {
                    let caseName = "\(file):\(name) [\(forkName)]"
                    guard let fork = Hardfork(name: forkName) else {
                        tally.record(.fail("unknown fork name \(forkName)"), case: caseName)
                        continue
                    }
                    let expectedGas = expected["intrinsicGas"]?.stringValue.flatMap { UInt64(Hex.stripPrefix($0), radix: 16) }
                    let outcome = decoded.flatMap { tx in
                        Result { () throws(TransactionError) in (tx, try tx.validate(for: fork, chainID: Self.suiteChainID)) }
                    }
                    var problems: [String] = []
                    if let exception = expected["exception"]?.stringValue {
                        let names = exception.split(separator: "|").map {
                            $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "TransactionException.", with: "")
                        }
                        switch outcome {
                        case .success(let (tx, sender)):
                            problems.append("accepted (hash \(tx.hash), sender \(sender)) but expected \(exception)")
                        case .failure(let error):
                            rejections += 1
                            let mine = SuiteExceptionNames.name(for: error, fork: fork, raw: raw)
                            if names.contains(mine) {
                                nameMatches += 1
                            } else {
                                let key = "\(names.joined(separator: "|")) ← \(mine)"
                                mismatchedNames[key, default: 0] += 1
                                if mismatchExample[key] == nil { mismatchExample[key] = "\(file) \(forkName): \(error)" }
                                problems.append("rejected as \(mine) (\(error)), but the suite expects \(exception)")
                            }
                            // The suite reports intrinsic gas for rejections found after sender recovery.
                            if case .success(let tx) = decoded, Self.isAfterSenderRecovery(error), let expectedGas {
                                rejectedGasCompared += 1
                                let gas = tx.transaction.intrinsicGas(fork: fork).gas
                                if gas != expectedGas {
                                    problems.append("rejected as expected (\(error)), but intrinsic gas \(gas) != \(expectedGas)")
                                }
                            }
                        }
                    } else {
                        switch outcome {
                        case .failure(let error):
                            problems.append("rejected (\(error)) but expected valid")
                        case .success(let (tx, sender)):
                            if let hash = expected["hash"]?.stringValue, tx.hash.hexString != hash.lowercased() {
                                problems.append("hash \(tx.hash) != \(hash)")
                            }
                            if let want = expected["sender"]?.stringValue, sender.lowercasedHex != want.lowercased() {
                                problems.append("sender \(sender.lowercasedHex) != \(want)")
                            }
                            let gas = tx.transaction.intrinsicGas(fork: fork).gas
                            if let expectedGas, gas != expectedGas {
                                problems.append("intrinsic gas \(gas) != \(expectedGas)")
                            }
                        }
                    }
                    tally.record(problems.isEmpty ? .pass : .fail(problems.joined(separator: "; ")), case: caseName)
                }
            }
        }
        tally.report()
        print("TransactionTests: \(files) files; exception names: \(nameMatches) of \(rejections) rejections match the suite's name exactly; intrinsic gas also compared for \(rejectedGasCompared) rejections found after sender recovery")
        for (pair, count) in mismatchedNames.sorted(by: { $0.key < $1.key }) {
            print("  name differs (\(count)x): expected \(pair), e.g. \(mismatchExample[pair] ?? "")")
        }
        #expect(tally.failed == 0)
    }

    /// Errors found only after the sender was recovered (the suite reports intrinsic gas for those).
    static func isAfterSenderRecovery(_ error: TransactionError) -> Bool {
        switch error {
        case .intrinsicGasTooLow, .floorGasTooLow, .initcodeTooLarge, .priorityFeeAboveMaxFee,
            .gasLimitPriceProductOverflow, .nonceTooBig, .gasLimitAboveCap:
            return true
        default:
            return false
        }
    }
}
