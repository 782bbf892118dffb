import EthereumPrimitives

/// The parts a fork's gas schedule prices separately. A transaction's gas is split into them so that,
/// when the same transaction costs a different amount under another fork, the parts that moved say which
/// rule moved them (``GasScheduleChange``).
public enum GasComponent: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// The transaction's intrinsic gas: base cost, calldata bytes, creation and initcode words.
    case intrinsic
    /// What the EIP-7623 calldata floor added on top of the gas the transaction would otherwise use.
    case calldataFloor
    /// SLOAD.
    case storageRead
    /// SSTORE (before its refund).
    case storageWrite
    /// BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH and SELFDESTRUCT: opcodes that touch another account.
    case accountAccess
    /// Every other opcode, calls and precompiles included, and memory expansion.
    case otherExecution
    /// The deposit of a created contract's code (200 gas per byte).
    case codeDeposit
    /// The refund granted at the end (subtracted).
    case refund
    /// The transaction's gas limit was lowered to the fork's cap (EIP-7825); not gas itself.
    case gasLimitCap

    public static func < (a: GasComponent, b: GasComponent) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    public var description: String {
        switch self {
        case .intrinsic: return "intrinsic gas"
        case .calldataFloor: return "calldata floor"
        case .storageRead: return "storage reads"
        case .storageWrite: return "storage writes"
        case .accountAccess: return "account access"
        case .otherExecution: return "other execution"
        case .codeDeposit: return "code deposit"
        case .refund: return "refund"
        case .gasLimitCap: return "gas limit cap"
        }
    }
}

/// One transaction's gas (or a sum of several), split into ``GasComponent``s. The parts add up to the
/// receipt's `gasUsed`: intrinsic + storage reads + storage writes + account access + other execution +
/// code deposit − refund + calldata floor.
public struct GasBreakdown: Sendable, Hashable {
    /// Gas per component (the refund as a positive amount; the cap component counts capped transactions).
    public private(set) var parts: [GasComponent: UInt64] = [:]

    /// An empty breakdown (the sum of none).
    public init() {}

    /// Creates a breakdown from its parts.
    public init(parts: [GasComponent: UInt64]) { self.parts = parts.filter { $0.value != 0 } }

    /// The amount of `component`.
    public subscript(_ component: GasComponent) -> UInt64 { parts[component] ?? 0 }

    /// The sum of two breakdowns (a function's calls added up). Gas of a run stays far below 2^64.
    public static func + (a: GasBreakdown, b: GasBreakdown) -> GasBreakdown {
        GasBreakdown(parts: a.parts.merging(b.parts) { $0 &+ $1 })
    }

    /// The components whose amounts differ between two breakdowns, with the signed change.
    public func changes(from baseline: GasBreakdown) -> [(component: GasComponent, change: Int64)] {
        GasComponent.allCases.compactMap { component in
            let now = self[component]
            let then = baseline[component]
            guard now != then else { return nil }
            // Both are gas amounts of one scenario, far below 2^62.
            let change = now > then ? Int64(clamping: now - then) : -Int64(clamping: then - now)
            return (component, change)
        }
    }

    /// Opcodes whose gas is an access to another account's state.
    static let accountOpcodes: Set<String> = ["BALANCE", "EXTCODESIZE", "EXTCODECOPY", "EXTCODEHASH", "SELFDESTRUCT"]

    /// Splits one mined transaction's gas, from what its struct-log trace says each opcode cost.
    ///
    /// - Parameters:
    ///   - gasUsed: the receipt's gas used.
    ///   - intrinsic: the fork's intrinsic gas of the transaction; `floor` its EIP-7623 floor (0 before Prague).
    ///   - steps: per executed opcode its name, depth, gas left before it and its cost (outermost frame depth 1).
    ///   - depositedCodeSize: the size of the code a creation deposited (0 for a call or a failed creation).
    ///   - gasLimitCapped: true when the transaction's gas limit was lowered to the fork's cap.
    public static func split(
        gasUsed: UInt64, intrinsic: UInt64, floor: UInt64, steps: [(op: String, depth: Int, gas: Int64, cost: Int64)],
        depositedCodeSize: Int = 0, gasLimitCapped: Bool = false
    ) -> GasBreakdown {
        var parts: [GasComponent: UInt64] = [.intrinsic: intrinsic]
        var consumed: UInt64 = 0
        let outer = steps.filter { $0.depth == steps.first?.depth }
        if let first = outer.first, let last = outer.last, first.gas >= 0, last.gas >= 0, last.cost >= 0 {
            // Gas at the start of execution minus gas left after the outermost frame's last opcode.
            let left = last.gas > last.cost ? last.gas - last.cost : 0
            consumed = first.gas > left ? UInt64(first.gas - left) : 0
        }
        var attributed: UInt64 = 0
        for step in steps where step.cost > 0 {
            let component: GasComponent
            switch step.op {
            case "SLOAD": component = .storageRead
            case "SSTORE": component = .storageWrite
            case let op where accountOpcodes.contains(op): component = .accountAccess
            default: continue
            }
            parts[component, default: 0] &+= UInt64(step.cost)
            attributed &+= UInt64(step.cost)
        }
        parts[.otherExecution] = consumed > attributed ? consumed - attributed : 0
        // The code deposit is charged after the last opcode (200 gas per byte since Frontier).
        let deposit = UInt64(depositedCodeSize) &* 200
        parts[.codeDeposit] = deposit
        let beforeRefund = intrinsic &+ consumed &+ deposit
        if floor > 0 && gasUsed == floor && floor > beforeRefund {
            parts[.calldataFloor] = floor - beforeRefund
        } else if beforeRefund > gasUsed {
            parts[.refund] = beforeRefund - gasUsed
        } else if gasUsed > beforeRefund {
            // Gas the trace did not show (never expected): kept with the execution so the parts still add up.
            parts[.otherExecution, default: 0] &+= gasUsed - beforeRefund
        }
        if gasLimitCapped { parts[.gasLimitCap] = 1 }
        return GasBreakdown(parts: parts)
    }

    /// The gas the parts add up to.
    public var total: UInt64 {
        var sum: UInt64 = 0
        for component in GasComponent.allCases where component != .refund && component != .gasLimitCap { sum &+= self[component] }
        return sum &- self[.refund]
    }
}
