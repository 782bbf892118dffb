import EthereumContracts
import EthereumPrimitives

extension GasSnapshot {
    /// The namespace of every key `carchain gas-report` writes for CarChain (forge's contract name).
    public static let contractName = "CarChain"

    /// The snapshot of reports, one per fork (nil: a node's unnamed fork).
    public init(reports: [(fork: Hardfork?, report: GasReport)]) {
        self.init(reports: reports, contractName: { _ in Self.contractName })
    }

    /// The snapshot of several contracts' reports (a scenario of any contract), each under its report's
    /// ``GasReport/contract`` name: `Name:function@Fork`, as EthereumTesting's `TestChain.gasSnapshot()` writes them.
    public init(contractReports reports: [(fork: Hardfork?, report: GasReport)]) {
        self.init(reports: reports, contractName: { $0.contract })
    }

    private init(reports: [(fork: Hardfork?, report: GasReport)], contractName: (GasReport) -> String) {
        var entries: [Entry] = []
        for (fork, report) in reports {
            let name = contractName(report)
            let suffix = fork.map { "@\($0.name)" } ?? ""
            if let gas = report.deploymentGas {
                var metrics: [(name: String, value: UInt64)] = [("gas", gas)]
                if let size = report.deploymentSize { metrics.append(("size", UInt64(size))) }
                if let size = report.runtimeSize { metrics.append(("runtimeSize", UInt64(size))) }
                entries.append(Entry(key: "\(name):\(Self.deploymentName)\(suffix)", metrics: metrics))
            }
            for f in report.functions {
                entries.append(
                    Entry(
                        key: "\(name):\(f.name)\(suffix)",
                        metrics: [("calls", UInt64(f.calls)), ("min", f.min), ("mean", f.avg), ("median", f.median), ("max", f.max)]))
            }
        }
        self.init(entries: entries)
    }
}
