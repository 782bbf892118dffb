import EthereumPrimitives

/// What the interpreter loop checks before running one operation in one fork, packed in 8 bytes: the
/// static gas and the stack sizes the instruction may start at. Operations the fork does not define get
/// an unsatisfiable stack bound, so a single range check covers "undefined", "underflow" and
/// "overflow".
public struct InstructionCost: Sendable, Equatable {
    /// Gas charged before the instruction runs (at most 32,000: CREATE).
    public var staticGas: UInt16
    /// The fewest stack items the instruction may start with (its inputs).
    public var minStack: UInt16
    /// The most stack items it may start with without overflowing 1024 after it runs.
    public var maxStack: UInt16
    /// The operation (and so the opcode) the entry describes.
    public var operation: Operation

    /// Creates an entry.
    public init(staticGas: UInt16, minStack: UInt16, maxStack: UInt16, operation: Operation) {
        self.staticGas = staticGas
        self.minStack = minStack
        self.maxStack = maxStack
        self.operation = operation
    }

    /// The entry of a byte the fork does not define.
    public static let undefined = InstructionCost(staticGas: 0, minStack: 1, maxStack: 0, operation: .invalid)

    /// True when the opcode is defined and executable in the table's fork.
    @inlinable
    public var isDefined: Bool { minStack <= maxStack }
}

/// The per-fork table the interpreter loop indexes by ``Operation`` (the analysed code holds each
/// opcode's operation), derived from ``Opcodes/definitions``.
public struct InstructionTable: Sendable {
    /// One entry per ``Operation``, indexed by its raw value.
    public let entries: [InstructionCost]
    /// The fork the table was built for.
    public let fork: Hardfork

    /// The maximum stack depth (Yellow Paper: 1024 items).
    public static let stackLimit = 1024

    /// Builds the table for `fork` from the opcode definitions.
    public init(fork: Hardfork) {
        self.fork = fork
        var entries = [InstructionCost](repeating: .undefined, count: Operation.allCases.count)
        for definition in Opcodes.definitions where definition.isExecutable {
            guard let gas = definition.staticGas(in: fork) else { continue }
            let growth = definition.stackOutputs - definition.stackInputs
            entries[Int(definition.operation.rawValue)] = InstructionCost(
                staticGas: UInt16(gas),
                minStack: UInt16(definition.stackInputs),
                maxStack: UInt16(Self.stackLimit - max(0, growth)),
                operation: definition.operation
            )
        }
        self.entries = entries
    }

    /// The entry of opcode byte `opcode` (``InstructionCost/undefined`` for a byte no fork defines).
    public subscript(opcode opcode: UInt8) -> InstructionCost {
        entries[Int(Opcodes.operationByByte[Int(opcode)].rawValue)]
    }

    /// The table for each fork, built once.
    public static func forFork(_ fork: Hardfork) -> InstructionTable { cache[fork.rawValue] }

    private static let cache: [InstructionTable] = Hardfork.allCases.map { InstructionTable(fork: $0) }
}
