import EthereumPrimitives

/// Everything about one opcode, in one record: its byte and mnemonic, immediate bytes, stack effect,
/// the fork that introduced it, its static gas in every fork (each repricing with its EIP), and the
/// operation that implements it. The per-fork ``InstructionTable`` the interpreter loop indexes is
/// derived from these records (``Opcodes/definitions``), as geth derives its jump tables from its
/// `operation` records.
///
/// The body is named by ``operation`` rather than stored as a function value: the interpreter is
/// generic over its host and tracer, and its loop dispatches with one exhaustive `switch` over
/// ``Operation`` so that every body is inlined into the loop (a function value could not be). The
/// compiler checks that every operation has a body; `OpcodeTableTests` checks that every opcode of
/// every fork reaches one.
public struct OpcodeDefinition: Sendable, Equatable {
    /// The opcode byte.
    public let byte: UInt8
    /// The mnemonic, e.g. `"PUSH1"`.
    public let name: String
    /// The number of immediate bytes after the opcode (1–32 for PUSH1–PUSH32, else 0).
    public let immediateSize: Int
    /// Stack items consumed.
    public let stackInputs: Int
    /// Stack items produced.
    public let stackOutputs: Int
    /// The static gas from the fork that introduced the opcode on: the first entry introduces it, each
    /// later one reprices it from its fork on. Dynamic parts (memory expansion, copy words, cold-access
    /// surcharges, SSTORE, CALL value and new-account costs, EXP bytes) are charged by the body.
    public let gas: [GasPatch]
    /// The body.
    public let operation: Operation

    /// Describes an opcode. `gas` must not be empty and must be in fork order.
    public init(
        _ byte: UInt8, _ name: String, immediate: Int = 0, in inputs: Int, out outputs: Int, _ operation: Operation,
        gas: [GasPatch]
    ) {
        precondition(!gas.isEmpty && zip(gas, gas.dropFirst()).allSatisfy { $0.fork < $1.fork }, "\(name): gas patches")
        self.byte = byte
        self.name = name
        self.immediateSize = immediate
        self.stackInputs = inputs
        self.stackOutputs = outputs
        self.gas = gas
        self.operation = operation
    }

    /// Describes an opcode whose static gas never changed.
    public init(
        _ byte: UInt8, _ name: String, immediate: Int = 0, in inputs: Int, out outputs: Int, _ operation: Operation,
        gas: Int64, since fork: Hardfork = .frontier, eip: Int? = nil
    ) {
        self.init(
            byte, name, immediate: immediate, in: inputs, out: outputs, operation,
            gas: [GasPatch(fork, gas, eip: eip)])
    }

    /// The first fork in which the opcode is defined.
    public var introduced: Hardfork { gas[0].fork }

    /// The EIP that introduced the opcode (nil for the Yellow Paper's original set).
    public var introducedBy: Int? { gas[0].eip }

    /// True when the opcode is defined in `fork`.
    @inlinable
    public func isDefined(in fork: Hardfork) -> Bool { fork >= gas[0].fork }

    /// True when the opcode can run at all (INVALID, 0xFE, is named but always halts: EIP-141).
    public var isExecutable: Bool { operation != .invalid }

    /// The static gas in `fork` (nil when the opcode is not defined there).
    public func staticGas(in fork: Hardfork) -> Int64? {
        gas.last { $0.fork <= fork }?.gas
    }
}

/// One step of an opcode's static gas history: from `fork` on the opcode costs `gas`, as set by `eip`.
public struct GasPatch: Sendable, Equatable {
    /// The first fork with this cost.
    public let fork: Hardfork
    /// The static gas.
    public let gas: Int64
    /// The EIP that set the cost; nil for the Yellow Paper's original (Frontier) figure.
    public let eip: Int?

    /// Creates a patch.
    public init(_ fork: Hardfork, _ gas: Int64, eip: Int? = nil) {
        self.fork = fork
        self.gas = gas
        self.eip = eip
    }
}
