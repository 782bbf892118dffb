import Conformance
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// A fast in-process subset of the GeneralStateTests (about two thousand post entries from a dozen
/// directories, every fork in them), so `swift test` alone exercises the EVM against the reference
/// suites. The whole suites run through `make statetests` (`carchain evm statetest`).
@Suite struct StateTestsSubsetTests {
    static let directories = [
        "Cancun/GeneralStateTests/stExample",
        "Cancun/GeneralStateTests/VMTests/vmArithmeticTest",
        "Cancun/GeneralStateTests/VMTests/vmBitwiseLogicOperation",
        "Cancun/GeneralStateTests/VMTests/vmIOandFlowOperations",
        "Cancun/GeneralStateTests/stSStoreTest",
        "Cancun/GeneralStateTests/stCreate2",
        "Cancun/GeneralStateTests/stRevertTest",
        "Cancun/GeneralStateTests/stEIP150singleCodeGasPrices",
        "Cancun/GeneralStateTests/stEIP1559",
        "Cancun/GeneralStateTests/Cancun/stEIP1153-transientStorage",
        "Cancun/GeneralStateTests/Cancun/stEIP5656-MCOPY",
        "Cancun/GeneralStateTests/Pyspecs/cancun/eip6780_selfdestruct",
        "Cancun/GeneralStateTests/Shanghai/stEIP3855-push0",
        "Constantinople/GeneralStateTests/stShift",
        "Constantinople/GeneralStateTests/stRefundTest",
        // EEST fixtures (config.blobSchedule, authorizationList, TransactionException names).
        "Prague/state_tests/prague/eip7702_set_code_tx",
        "Prague/state_tests/prague/eip7623_increase_calldata_cost",
        "Prague/state_tests/cancun/eip4844_blobs",
        "Osaka/state_tests/osaka/eip7825_transaction_gas_limit_cap",
        "Osaka/state_tests/osaka/eip7594_peerdas",
    ]

    @Test(arguments: directories)
    func stateTests(directory: String) throws {
        var tally = ConformanceTally(suite: "GeneralStateTests \(directory)")
        guard let dir = ConformanceVectors.directory(directory, suite: "GeneralStateTests \(directory)") else {
            tally.record(.skip("vectors not found"), case: directory)
            tally.report()
            return
        }
        let runner = StateTestRunner()
        for file in ConformanceVectors.jsonFiles(under: dir) {
            for result in runner.run(file: file) {
                let outcome: CaseOutcome =
                    result.skipped ? .skip(result.error ?? "skipped") : result.pass ? .pass : .fail(result.error ?? "failed")
                tally.record(outcome, case: "\(file.lastPathComponent):\(result.label)")
            }
        }
        tally.report()
        #expect(tally.passed > 0)
    }
}
