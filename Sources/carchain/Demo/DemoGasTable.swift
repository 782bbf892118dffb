import CarChain
import CarChainKit

/// The demo's transactions and their gas, turned into the project's ``GasReport`` (the funding transfer is
/// not a contract call, so it is reported on its own line).
struct DemoGasLedger {
    private(set) var observations: [GasObservation] = []
    private(set) var deploymentGas: UInt64?
    private(set) var transfers: [UInt64] = []

    mutating func record(_ function: String, gasUsed: UInt64, succeeded: Bool = true) {
        switch function {
        case "deploy": deploymentGas = gasUsed
        case "transfer (funding)": transfers.append(gasUsed)
        default: observations.append(GasObservation(function: function, gasUsed: gasUsed, succeeded: succeeded))
        }
    }

    /// The report of the contract's calls (and its deployment, when seen).
    func report(deploymentSize: Int?, runtimeSize: Int?) -> GasReport {
        GasReport(
            contract: "CarChain", deploymentGas: deploymentGas, deploymentSize: deploymentSize, runtimeSize: runtimeSize,
            observations: observations)
    }

    /// Every transaction's gas, transfers included.
    var totalGas: UInt64 {
        observations.reduce(deploymentGas ?? 0) { $0 + $1.gasUsed } + transfers.reduce(0, +)
    }

    var transactionCount: Int { observations.count + transfers.count + (deploymentGas == nil ? 0 : 1) }
}
