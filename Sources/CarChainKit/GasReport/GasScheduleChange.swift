import EthereumPrimitives

/// A fork's change to what gas costs, as data: the EIP, the fork that activated it and the
/// ``GasComponent``s it reprices. When a function costs a different amount under two forks, the EIPs
/// named are those activated between them whose components actually moved in the function's breakdown —
/// derived from the traced gas, never from the function's name.
public struct GasScheduleChange: Sendable, Hashable {
    /// The EIP's number.
    public var eip: Int
    /// The fork that activated it.
    public var fork: Hardfork
    /// A short summary of the change.
    public var summary: String
    /// What it reprices.
    public var components: Set<GasComponent>

    /// `EIP-2929`.
    public var name: String { "EIP-\(eip)" }

    /// The EIPs since Byzantium that change what an existing transaction pays (new opcodes and new
    /// transaction types change nothing an existing transaction does, so they are not listed).
    public static let schedule: [GasScheduleChange] = [
        .init(eip: 1283, fork: .constantinople, summary: "net gas metering for SSTORE", components: [.storageWrite, .refund]),
        .init(eip: 1716, fork: .petersburg, summary: "EIP-1283 removed again", components: [.storageWrite, .refund]),
        .init(eip: 1884, fork: .istanbul, summary: "SLOAD 200→800, BALANCE 400→700, EXTCODEHASH 400→700", components: [.storageRead, .accountAccess]),
        .init(eip: 2028, fork: .istanbul, summary: "calldata 68→16 gas per non-zero byte", components: [.intrinsic]),
        .init(eip: 2200, fork: .istanbul, summary: "structured SSTORE metering (dirty slots 800, refunds on reset)", components: [.storageWrite, .refund]),
        .init(
            eip: 2929, fork: .berlin, summary: "cold/warm state access (cold SLOAD 2100, cold account 2600, warm 100)",
            components: [.storageRead, .storageWrite, .accountAccess, .otherExecution]),
        .init(eip: 2565, fork: .berlin, summary: "ModExp precompile repriced", components: [.otherExecution]),
        .init(eip: 3529, fork: .london, summary: "refunds cut: at most gasUsed/5, SSTORE clear 4800", components: [.refund]),
        .init(eip: 3860, fork: .shanghai, summary: "initcode metered at 2 gas per 32-byte word", components: [.intrinsic]),
        .init(eip: 7623, fork: .prague, summary: "calldata floor of 10/40 gas per zero/non-zero byte", components: [.calldataFloor]),
        .init(eip: 7825, fork: .osaka, summary: "transaction gas limit capped at 2^24", components: [.gasLimitCap]),
        .init(eip: 7883, fork: .osaka, summary: "ModExp precompile minimum and price raised", components: [.otherExecution]),
    ]

    /// The changes activated after `from` up to and including `to` (in either direction) that reprice any
    /// of `moved`.
    public static func explaining(_ moved: Set<GasComponent>, from: Hardfork, to: Hardfork) -> [GasScheduleChange] {
        let low = min(from, to)
        let high = max(from, to)
        return schedule.filter { $0.fork > low && $0.fork <= high && !$0.components.isDisjoint(with: moved) }
    }
}

/// How one function's gas moved from one fork to the next, and why.
public struct ForkGasChange: Sendable, Hashable {
    /// The function's name, or `(deployment)`.
    public var function: String
    /// The earlier column's fork and the later one's.
    public var from: Hardfork
    public var to: Hardfork
    /// Median and max under each fork.
    public var medianBefore: UInt64
    public var medianAfter: UInt64
    public var maxBefore: UInt64
    public var maxAfter: UInt64
    /// Total gas of all calls under each fork.
    public var totalBefore: UInt64
    public var totalAfter: UInt64
    /// The components that moved, with the change in gas summed over the calls.
    public var moved: [(component: GasComponent, change: Int64)]
    /// The EIPs that explain it (empty: none in ``GasScheduleChange/schedule`` does).
    public var eips: [GasScheduleChange]

    public static func == (a: ForkGasChange, b: ForkGasChange) -> Bool {
        a.function == b.function && a.from == b.from && a.to == b.to && a.totalBefore == b.totalBefore
            && a.totalAfter == b.totalAfter && a.eips == b.eips && a.moved.map(\.component) == b.moved.map(\.component)
            && a.moved.map(\.change) == b.moved.map(\.change)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(function)
        hasher.combine(from)
        hasher.combine(to)
        hasher.combine(totalAfter)
    }

    /// `rentCar Istanbul→Berlin: median 80453→82453 (+2.5%); storage reads +3800, … — EIP-2929 (cold/warm …)`.
    public var description: String {
        let median = "median \(medianBefore)→\(medianAfter) (\(GasReportComparison.formatChange(GasReportComparison.change(from: medianBefore, to: medianAfter))))"
        let parts = moved.map { "\($0.component) \($0.change > 0 ? "+" : "")\($0.change)" }.joined(separator: ", ")
        let why = eips.isEmpty ? "no EIP in the schedule explains it" : eips.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ")
        return "\(function) \(from.name)→\(to.name): \(median); \(parts.isEmpty ? "no component moved" : parts) — \(why)"
    }
}
