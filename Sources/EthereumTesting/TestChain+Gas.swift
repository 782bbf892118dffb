import EthereumContracts
import Foundation

/// What the bench's transactions cost, per contract and function, in forge's `--gas-report` columns.
public struct TestGasReport: Sendable, Hashable, CustomStringConvertible {
    /// One contract's deployment and functions.
    public struct ContractGas: Sendable, Hashable {
        /// The contract's label (or address).
        public var name: String
        /// The deployment's gas, creation data size and runtime code size, when the bench deployed it.
        public var deployment: (gas: UInt64, size: Int, runtimeSize: Int)?
        /// Per function (its name from the label's ABI, else the selector), sorted by name.
        public var functions: [(name: String, stats: GasStatistics, reverted: Int)]

        public static func == (a: ContractGas, b: ContractGas) -> Bool {
            a.name == b.name && a.deployment?.gas == b.deployment?.gas && a.deployment?.size == b.deployment?.size
                && a.deployment?.runtimeSize == b.deployment?.runtimeSize && a.functions.map(\.name) == b.functions.map(\.name)
                && a.functions.map(\.stats) == b.functions.map(\.stats) && a.functions.map(\.reverted) == b.functions.map(\.reverted)
        }
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// The contracts, sorted by name.
    public var contracts: [ContractGas]
    /// The fork the chain ran.
    public var fork: Hardfork

    /// The function's statistics, by contract and function name.
    public func function(_ contract: String, _ function: String) -> GasStatistics? {
        contracts.first { $0.name == contract }?.functions.first { $0.name == function }?.stats
    }

    /// The report as forge prints it: a table per contract.
    public var description: String {
        var out: [String] = []
        for contract in contracts {
            out.append("\(contract.name) (\(fork.name))")
            if let d = contract.deployment {
                out.append("  Deployment Cost \(d.gas)  Deployment Size \(d.size)  Runtime Size \(d.runtimeSize)")
            }
            let width = max(13, contract.functions.map(\.name.count).max() ?? 0)
            out.append("  " + "Function Name".padding(toLength: width, withPad: " ", startingAt: 0) + "       min       avg    median       max  # calls")
            for f in contract.functions {
                let columns = [f.stats.min, f.stats.avg, f.stats.median, f.stats.max].map { String($0).leftPadded(9) }
                out.append(
                    "  " + f.name.padding(toLength: width, withPad: " ", startingAt: 0) + " " + columns.joined(separator: " ") + " "
                        + String(f.stats.count).leftPadded(8))
            }
        }
        return out.joined(separator: "\n")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

extension TestChain {
    /// The gas report of every transaction sent through the bench (reverted ones counted, as forge counts them),
    /// per contract (by label) and function (by the label's ABI, else the 4-byte selector).
    public func gasReport() async -> TestGasReport {
        let sent = transactions
        var deployments: [Address: (gas: UInt64, size: Int)] = [:]
        var calls: [Address: [String: [(gas: UInt64, ok: Bool)]]] = [:]
        for transaction in sent {
            if let to = transaction.request.to {
                calls[to, default: [:]][functionName(to: to, calldata: transaction.request.data), default: []].append(
                    (transaction.outcome.gasUsed, transaction.outcome.succeeded))
            } else if let created = transaction.outcome.contractAddress {
                deployments[created] = (transaction.outcome.gasUsed, transaction.request.data.count)
            }
        }
        var contracts: [TestGasReport.ContractGas] = []
        for address in Set(deployments.keys).union(calls.keys) {
            var deployment: (gas: UInt64, size: Int, runtimeSize: Int)?
            if let d = deployments[address] {
                let runtime = (try? await code(at: address, block: .latest))?.count ?? 0
                deployment = (d.gas, d.size, runtime)
            }
            let functions = (calls[address] ?? [:]).sorted { $0.key < $1.key }.compactMap { name, records in
                GasStatistics(records.map(\.gas)).map { (name: name, stats: $0, reverted: records.filter { !$0.ok }.count) }
            }
            contracts.append(TestGasReport.ContractGas(name: name(of: address), deployment: deployment, functions: functions))
        }
        return TestGasReport(contracts: contracts.sorted { $0.name < $1.name }, fork: hardfork)
    }

    /// The name of the function `calldata` calls on `to`: from the label's ABI, else the selector in hex.
    func functionName(to: Address, calldata: [UInt8]) -> String {
        guard let selector = ABISelector(prefixOf: calldata) else { return calldata.isEmpty ? "receive" : "fallback" }
        if let abi = label(of: to)?.abi, let function = abi.function(selector: selector) {
            // Overloads are told apart by signature, as the bindings name them.
            return abi.functions.filter { $0.name == function.name }.count > 1 ? function.signature : function.name
        }
        return Hex.encode(selector.bytes)
    }

    /// The gas report as a `.gas-snapshot` (the format `carchain gas-report --snapshot` writes: a line per
    /// function `Contract:function@Fork (calls:, min:, mean:, median:, max:)` and per deployment
    /// `Contract:(deployment)@Fork (gas:, size:, runtimeSize:)`), plus `extra` lines such as per-test figures from
    /// ``measureGas(_:)`` (`Suite:test@Fork (gas: n)`).
    public func gasSnapshot(extra: [String: UInt64] = [:]) async -> GasSnapshot {
        let report = await gasReport()
        let suffix = "@\(report.fork.name)"
        var entries: [GasSnapshot.Entry] = []
        for contract in report.contracts {
            if let d = contract.deployment {
                entries.append(
                    GasSnapshot.Entry(
                        key: "\(contract.name):\(GasSnapshot.deploymentName)\(suffix)",
                        metrics: [("gas", d.gas), ("size", UInt64(d.size)), ("runtimeSize", UInt64(d.runtimeSize))]))
            }
            for f in contract.functions {
                entries.append(
                    GasSnapshot.Entry(
                        key: "\(contract.name):\(f.name)\(suffix)",
                        metrics: [
                            ("calls", UInt64(f.stats.count)), ("min", f.stats.min), ("mean", f.stats.avg), ("median", f.stats.median),
                            ("max", f.stats.max),
                        ]))
            }
        }
        for (key, gas) in extra { entries.append(GasSnapshot.Entry(key: key + suffix, metrics: [("gas", gas)])) }
        return GasSnapshot(entries: entries)
    }

    /// Runs `body` and gives the gas its transactions used, summed (a test's own figure, as forge's per-test gas).
    public func measureGas(_ body: () async throws -> Void) async rethrows -> UInt64 {
        let before = transactions.count
        try await body()
        return transactions.dropFirst(before).reduce(0) { $0 &+ $1.outcome.gasUsed }
    }

    /// Checks ``gasSnapshot(extra:)`` against the snapshot file at `path` with `carchain gas-report --check`'s rule: a
    /// function's median or max (a deployment's or a test's gas) risen by more than `tolerance` percent fails, and so
    /// does a line only one side has. With `update` (by default when the environment sets `GAS_SNAPSHOT_UPDATE=1`),
    /// or when the file does not exist yet, the file is written instead. Returns every change found.
    @discardableResult
    public func checkGasSnapshot(
        at path: String, tolerance: Double = 0, extra: [String: UInt64] = [:],
        update: Bool = ProcessInfo.processInfo.environment["GAS_SNAPSHOT_UPDATE"] == "1"
    ) async throws -> [GasSnapshotChange] {
        guard tolerance >= 0, tolerance.isFinite else { throw TestFailure("gas snapshot tolerance \(tolerance) is not a percentage ≥ 0") }
        let current = await gasSnapshot(extra: extra)
        if update || !FileManager.default.fileExists(atPath: path) {
            try Data(current.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            return []
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let baseline = try GasSnapshot(parsing: text, source: path)
        let changes = current.changes(from: baseline)
        let failing = current.regressions(from: baseline, tolerance: tolerance) + changes.filter { $0.kind != .changed }
        guard failing.isEmpty else {
            throw TestFailure(
                "gas snapshot \(path): \(failing.count) change(s) beyond \(tolerance)% (GAS_SNAPSHOT_UPDATE=1 rewrites it):\n"
                    + failing.map { "  \($0)" }.joined(separator: "\n"))
        }
        return changes
    }
}
