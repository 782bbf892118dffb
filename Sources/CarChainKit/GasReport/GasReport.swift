import EthereumContracts
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
    /// The signed transaction's bytes, counted for an L2 data fee (nil when unknown).
    public var encoded: TransactionBytes?
    /// The gas split by what the fork prices (nil when the run was not traced).
    public var breakdown: GasBreakdown?

    /// Creates an observation.
    public init(
        function: String, gasUsed: UInt64, succeeded: Bool = true, encoded: TransactionBytes? = nil, breakdown: GasBreakdown? = nil
    ) {
        self.function = function
        self.gasUsed = gasUsed
        self.succeeded = succeeded
        self.encoded = encoded
        self.breakdown = breakdown
    }
}

/// The size of a signed transaction as an L2 posts it to L1: zero and non-zero bytes.
public struct TransactionBytes: Sendable, Hashable {
    /// Zero bytes.
    public var zeros: UInt64
    /// Non-zero bytes.
    public var nonZeros: UInt64

    /// Counts `bytes`.
    public init(_ bytes: [UInt8]) {
        let zeros = bytes.reduce(0 as UInt64) { $0 + ($1 == 0 ? 1 : 0) }
        self.zeros = zeros
        nonZeros = UInt64(bytes.count) - zeros
    }

    /// Creates a count.
    public init(zeros: UInt64, nonZeros: UInt64) {
        self.zeros = zeros
        self.nonZeros = nonZeros
    }

    /// All bytes.
    public var count: UInt64 { zeros &+ nonZeros }

    /// The sum of two counts (a function's calls added up).
    public static func + (a: TransactionBytes, b: TransactionBytes) -> TransactionBytes {
        TransactionBytes(zeros: a.zeros &+ b.zeros, nonZeros: a.nonZeros &+ b.nonZeros)
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
    /// forge's "Deployment Size": the creation transaction's data in bytes (creation code and constructor
    /// arguments).
    public var deploymentSize: Int?
    /// The deployed (runtime) code's size in bytes.
    public var runtimeSize: Int?
    /// The deployment transaction's bytes and gas breakdown, when known.
    public var deployment: GasObservation?
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
        /// The signed transactions' bytes, summed over the calls (nil when any is unknown).
        public var encoded: TransactionBytes? = nil
        /// The calls' gas breakdowns summed (nil when any is unknown).
        public var breakdown: GasBreakdown? = nil
    }

    /// Builds a report from observations (in any order).
    public init(
        contract: String, deploymentGas: UInt64? = nil, deploymentSize: Int? = nil, runtimeSize: Int? = nil,
        deployment: GasObservation? = nil, observations: [GasObservation]
    ) {
        self.contract = contract
        self.deploymentGas = deploymentGas
        self.deploymentSize = deploymentSize
        self.runtimeSize = runtimeSize
        self.deployment = deployment
        var byName: [String: [GasObservation]] = [:]
        for observation in observations { byName[observation.function, default: []].append(observation) }
        functions = byName.keys.sorted().compactMap { name in
            byName[name].flatMap { Self.statistics(name: name, $0) }
        }
    }

    /// The statistics of one function's observations; nil for none.
    static func statistics(name: String, _ observations: [GasObservation]) -> FunctionGas? {
        guard let stats = GasStatistics(observations.map(\.gasUsed)) else { return nil }
        var encoded: TransactionBytes? = TransactionBytes(zeros: 0, nonZeros: 0)
        var breakdown: GasBreakdown? = GasBreakdown()
        for observation in observations {
            encoded = encoded.flatMap { sum in observation.encoded.map { sum + $0 } }
            breakdown = breakdown.flatMap { sum in observation.breakdown.map { sum + $0 } }
        }
        return FunctionGas(
            name: name, calls: stats.count, reverted: observations.filter { !$0.succeeded }.count, min: stats.min,
            avg: stats.avg, median: stats.median, max: stats.max, total: stats.total, encoded: encoded, breakdown: breakdown)
    }

    /// The statistics of `name`, if it was called.
    public func function(_ name: String) -> FunctionGas? { functions.first { $0.name == name } }

    /// The number of recorded transactions (deployment excluded).
    public var totalCalls: Int { functions.reduce(0) { $0 + $1.calls } }

    /// All gas used: the deployment's plus every call's.
    public var totalGas: UInt64 { functions.reduce(deploymentGas ?? 0) { $0 &+ $1.total } }
}
