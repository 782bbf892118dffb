import EthereumPrimitives

/// One mined transaction's gas, as a gas report records it: which function, how much gas its receipt
/// says it used, and whether it succeeded (a reverted transaction is charged too, and counted).
public struct GasObservation: Sendable, Hashable {
    /// The contract function's name (e.g. `rentCar`).
    public var function: String
    /// The receipt's `gasUsed`.
    public var gasUsed: UInt64
    /// False when the transaction reverted.
    public var succeeded: Bool

    /// Creates an observation.
    public init(function: String, gasUsed: UInt64, succeeded: Bool = true) {
        self.function = function
        self.gasUsed = gasUsed
        self.succeeded = succeeded
    }
}

/// A per-function gas report in the columns of Foundry's `forge test --gas-report`: deployment cost and
/// size, then for every function min, avg, median, max and the number of calls. It is built from
/// recorded observations, so any code holding receipts (a scenario run, a simulation, a demo) can make
/// one. Fees are computed separately, at a price (``GasPricing``), when rendering.
///
/// Statistics follow forge: avg is the integer mean (rounded down); median is the middle value, or the
/// integer mean of the two middle values for an even count. Reverted transactions are counted, as
/// forge counts them, and also tallied in ``FunctionGas/reverted``.
public struct GasReport: Sendable, Hashable {
    /// A label for the contract the report is about (e.g. `project`, `CarChain.json`).
    public var contract: String
    /// The deployment transaction's gas, when the report includes a deployment.
    public var deploymentGas: UInt64?
    /// The deployed (runtime) bytecode size in bytes.
    public var deploymentSize: Int?
    /// Per function, sorted by name.
    public private(set) var functions: [FunctionGas]

    /// One function's statistics.
    public struct FunctionGas: Sendable, Hashable {
        /// The function's name.
        public var name: String
        /// How many transactions called it.
        public var calls: Int
        /// How many of them reverted.
        public var reverted: Int
        /// The least gas used.
        public var min: UInt64
        /// The integer mean, rounded down.
        public var avg: UInt64
        /// The median (even counts: the integer mean of the two middle values).
        public var median: UInt64
        /// The most gas used.
        public var max: UInt64
        /// The total gas used by all calls.
        public var total: UInt64
    }

    /// Builds a report from observations (in any order).
    public init(
        contract: String, deploymentGas: UInt64? = nil, deploymentSize: Int? = nil, observations: [GasObservation]
    ) {
        self.contract = contract
        self.deploymentGas = deploymentGas
        self.deploymentSize = deploymentSize
        var byName: [String: [GasObservation]] = [:]
        for observation in observations { byName[observation.function, default: []].append(observation) }
        functions = byName.keys.sorted().compactMap { name in
            byName[name].flatMap { Self.statistics(name: name, $0) }
        }
    }

    /// The statistics of one function's observations; nil for none.
    static func statistics(name: String, _ observations: [GasObservation]) -> FunctionGas? {
        let gas = observations.map(\.gasUsed).sorted()
        guard let first = gas.first, let last = gas.last else { return nil }
        // Sums of UInt64 gas figures: 2^64 gas is out of reach of any run (a block holds 30M).
        let total = gas.reduce(0, &+)
        let count = UInt64(gas.count)
        let middle = gas.count / 2
        let median = gas.count % 2 == 1 ? gas[middle] : (gas[middle - 1] &+ gas[middle]) / 2
        return FunctionGas(
            name: name, calls: gas.count, reverted: observations.filter { !$0.succeeded }.count, min: first,
            avg: total / count, median: median, max: last, total: total)
    }

    /// The statistics of `name`, if it was called.
    public func function(_ name: String) -> FunctionGas? { functions.first { $0.name == name } }

    /// The number of recorded transactions (deployment excluded).
    public var totalCalls: Int { functions.reduce(0) { $0 + $1.calls } }

    /// All gas used: the deployment's plus every call's.
    public var totalGas: UInt64 { functions.reduce(deploymentGas ?? 0) { $0 &+ $1.total } }
}
