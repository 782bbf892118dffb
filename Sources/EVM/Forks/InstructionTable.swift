import EthereumPrimitives

/// What the interpreter loop checks before running one operation in one fork, packed in 8 bytes: the
/// static gas and the stack sizes the instruction may start at. Operations the fork does not define get
/// an unsatisfiable stack bound, so a single unsigned compare covers "undefined", "underflow" and
/// "overflow".
public struct InstructionCost: Sendable, Equatable {
    /// Gas charged before the instruction runs (at most 32,000: CREATE).
    public let staticGas: UInt16
    /// The fewest stack items the instruction may start with (its inputs).
    public let minStack: UInt16
    /// The most stack items it may start with without overflowing 1024 after it runs.
    public let maxStack: UInt16
    /// `maxStack − minStack`: the loop checks `size − minStack ≤ stackSpan` as one unsigned compare.
    @usableFromInline let stackSpan: UInt16

    /// Creates an entry.
    public init(staticGas: UInt16, minStack: UInt16, maxStack: UInt16) {
        self.staticGas = staticGas
        self.minStack = minStack
        self.maxStack = maxStack
        stackSpan = maxStack &- minStack
    }

    /// The entry of an operation the fork does not define: no stack size passes its check.
    public static let undefined = InstructionCost(staticGas: 0, minStack: .max, maxStack: 0)

    /// True when the operation is defined and executable in the table's fork.
    @inlinable
    public var isDefined: Bool { minStack <= maxStack }

    /// True when an instruction may start with `size` stack items.
    @inlinable @inline(__always)
    func admits(stackSize size: Int) -> Bool {
        UInt(bitPattern: size &- Int(minStack)) <= UInt(stackSpan)
    }
}

/// The per-fork table the interpreter loop indexes by ``Operation`` (the analysed code holds each
/// opcode's operation), derived from ``Opcodes/definitions``.
public struct InstructionTable: Sendable {
    /// One entry per ``Operation``, indexed by its raw value.
    public let entries: [InstructionCost]
    /// Stack items each ``Operation`` leaves minus those it takes (outputs − inputs), indexed by its raw
    /// value: what the basic-block analysis (``BlockCost``) adds up.
    public let stackDeltas: [Int8]
    /// The fork the table was built for.
    public let fork: Hardfork

    /// The maximum stack depth (Yellow Paper: 1024 items).
    public static let stackLimit = 1024

    /// Builds the table for `fork` from the opcode definitions.
    public init(fork: Hardfork) {
        self.fork = fork
        var entries = [InstructionCost](repeating: .undefined, count: Operation.allCases.count)
        var deltas = [Int8](repeating: 0, count: Operation.allCases.count)
        for definition in Opcodes.definitions where definition.isExecutable {
            let growth = definition.stackOutputs - definition.stackInputs
            deltas[Int(definition.operation.rawValue)] = Int8(growth)
            guard let gas = definition.staticGas(in: fork) else { continue }
            entries[Int(definition.operation.rawValue)] = InstructionCost(
                staticGas: UInt16(gas),
                minStack: UInt16(definition.stackInputs),
                maxStack: UInt16(Self.stackLimit - max(0, growth))
            )
        }
        self.entries = entries
        stackDeltas = deltas
    }

    /// The entry of opcode byte `opcode` (``InstructionCost/undefined`` for a byte no fork defines).
    public subscript(opcode opcode: UInt8) -> InstructionCost {
        entries[Int(Opcodes.operationByByte[Int(opcode)].rawValue)]
    }

    /// The table for each fork, built once.
    public static func forFork(_ fork: Hardfork) -> InstructionTable { cache[fork.rawValue] }

    private static let cache: [InstructionTable] = Hardfork.allCases.map { InstructionTable(fork: $0) }
}
