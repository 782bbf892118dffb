import EthereumPrimitives

/// What the interpreter loop checks before every instruction, for one opcode in one fork: its
/// static gas and the stack sizes it may run at. Undefined opcodes get an unsatisfiable stack
/// bound, so the loop needs a single range check for "undefined", "underflow" and "overflow".
public struct InstructionCost: Sendable, Equatable {
    /// Gas charged before the instruction runs.
    public var staticGas: Int64
    /// The fewest stack items the instruction may start with (its inputs).
    public var minStack: Int32
    /// The most stack items it may start with without overflowing 1024 after it runs.
    public var maxStack: Int32

    /// Creates an entry.
    public init(staticGas: Int64, minStack: Int32, maxStack: Int32) {
        self.staticGas = staticGas
        self.minStack = minStack
        self.maxStack = maxStack
    }

    /// True when the opcode is defined and executable in the table's fork.
    @inlinable
    public var isDefined: Bool { minStack <= maxStack }
}

/// The per-fork table the interpreter loop indexes by opcode byte.
public struct InstructionTable: Sendable {
    /// 256 entries, one per opcode byte.
    public let entries: [InstructionCost]
    /// The fork the table was built for.
    public let fork: Hardfork

    /// The maximum stack depth (Yellow Paper: 1024 items).
    public static let stackLimit = 1024

    /// Builds the table for `fork` from the opcode metadata and the static gas schedule.
    public init(fork: Hardfork) {
        self.fork = fork
        let gas = StaticGas.table(for: fork)
        var entries = [InstructionCost](repeating: InstructionCost(staticGas: 0, minStack: 1, maxStack: 0), count: 256)
        for op in 0..<256 {
            // 0xFE (INVALID, EIP-141) is named but never executable.
            guard op != 0xfe, let info = Opcodes.table[op], info.isDefined(in: fork) else { continue }
            let growth = info.stackOutputs - info.stackInputs
            entries[op] = InstructionCost(
                staticGas: gas[op],
                minStack: Int32(info.stackInputs),
                maxStack: Int32(Self.stackLimit - max(0, growth))
            )
        }
        self.entries = entries
    }

    /// The table for each fork, built once.
    public static func forFork(_ fork: Hardfork) -> InstructionTable { cache[fork.rawValue] }

    private static let cache: [InstructionTable] = Hardfork.allCases.map { InstructionTable(fork: $0) }
}
