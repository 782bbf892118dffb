import EthereumPrimitives

/// What the interpreter needs to know about one opcode before running it: its mnemonic, how many
/// immediate bytes follow it, its stack effect and the fork that introduced it.
///
/// "Undefined in this fork" is derived from `introduced` (and `removed`), not checked in each
/// instruction body.
public struct OpcodeInfo: Sendable, Equatable {
    /// The mnemonic, e.g. `"PUSH1"`.
    public let name: String
    /// The number of immediate bytes after the opcode (1–32 for PUSH1–PUSH32, else 0).
    public let immediateSize: Int
    /// Stack items consumed.
    public let stackInputs: Int
    /// Stack items produced.
    public let stackOutputs: Int
    /// The first fork in which the opcode is defined.
    public let introduced: Hardfork

    /// Describes an opcode.
    public init(_ name: String, immediate: Int = 0, in inputs: Int, out outputs: Int, since fork: Hardfork = .frontier) {
        self.name = name
        self.immediateSize = immediate
        self.stackInputs = inputs
        self.stackOutputs = outputs
        self.introduced = fork
    }

    /// True when the opcode is defined in `fork`.
    @inlinable
    public func isDefined(in fork: Hardfork) -> Bool { fork >= introduced }
}

/// The opcode metadata table: 256 entries, `nil` for bytes that no fork defines.
public enum Opcodes {
    /// Entry `i` describes opcode byte `i`.
    public static let table: [OpcodeInfo?] = makeTable()

    /// The metadata of `opcode`, or nil when no fork defines it.
    public static func info(_ opcode: UInt8) -> OpcodeInfo? { table[Int(opcode)] }

    /// The mnemonic of `opcode`, or `"opcode 0xNN"` for an undefined byte (as traces print it).
    public static func name(_ opcode: UInt8) -> String {
        if let info = table[Int(opcode)] { return info.name }
        let hex = String(opcode, radix: 16)
        return "opcode 0x" + (hex.count == 1 ? "0" + hex : hex)
    }

    /// The byte of the opcode named `name` (case-insensitive), or nil.
    public static func byte(named name: String) -> UInt8? {
        let upper = name.uppercased()
        return table.firstIndex { $0?.name == upper }.map { UInt8($0) }
    }

    private static func makeTable() -> [OpcodeInfo?] {
        var t = [OpcodeInfo?](repeating: nil, count: 256)
        func set(_ op: UInt8, _ info: OpcodeInfo) { t[Int(op)] = info }

        // 0x00 – 0x0b: stop and arithmetic
        set(0x00, OpcodeInfo("STOP", in: 0, out: 0))
        set(0x01, OpcodeInfo("ADD", in: 2, out: 1))
        set(0x02, OpcodeInfo("MUL", in: 2, out: 1))
        set(0x03, OpcodeInfo("SUB", in: 2, out: 1))
        set(0x04, OpcodeInfo("DIV", in: 2, out: 1))
        set(0x05, OpcodeInfo("SDIV", in: 2, out: 1))
        set(0x06, OpcodeInfo("MOD", in: 2, out: 1))
        set(0x07, OpcodeInfo("SMOD", in: 2, out: 1))
        set(0x08, OpcodeInfo("ADDMOD", in: 3, out: 1))
        set(0x09, OpcodeInfo("MULMOD", in: 3, out: 1))
        set(0x0a, OpcodeInfo("EXP", in: 2, out: 1))
        set(0x0b, OpcodeInfo("SIGNEXTEND", in: 2, out: 1))

        // 0x10 – 0x1e: comparison and bitwise logic
        set(0x10, OpcodeInfo("LT", in: 2, out: 1))
        set(0x11, OpcodeInfo("GT", in: 2, out: 1))
        set(0x12, OpcodeInfo("SLT", in: 2, out: 1))
        set(0x13, OpcodeInfo("SGT", in: 2, out: 1))
        set(0x14, OpcodeInfo("EQ", in: 2, out: 1))
        set(0x15, OpcodeInfo("ISZERO", in: 1, out: 1))
        set(0x16, OpcodeInfo("AND", in: 2, out: 1))
        set(0x17, OpcodeInfo("OR", in: 2, out: 1))
        set(0x18, OpcodeInfo("XOR", in: 2, out: 1))
        set(0x19, OpcodeInfo("NOT", in: 1, out: 1))
        set(0x1a, OpcodeInfo("BYTE", in: 2, out: 1))
        set(0x1b, OpcodeInfo("SHL", in: 2, out: 1, since: .constantinople))  // EIP-145
        set(0x1c, OpcodeInfo("SHR", in: 2, out: 1, since: .constantinople))  // EIP-145
        set(0x1d, OpcodeInfo("SAR", in: 2, out: 1, since: .constantinople))  // EIP-145
        set(0x1e, OpcodeInfo("CLZ", in: 1, out: 1, since: .osaka))  // EIP-7939

        set(0x20, OpcodeInfo("KECCAK256", in: 2, out: 1))

        // 0x30 – 0x3f: environment
        set(0x30, OpcodeInfo("ADDRESS", in: 0, out: 1))
        set(0x31, OpcodeInfo("BALANCE", in: 1, out: 1))
        set(0x32, OpcodeInfo("ORIGIN", in: 0, out: 1))
        set(0x33, OpcodeInfo("CALLER", in: 0, out: 1))
        set(0x34, OpcodeInfo("CALLVALUE", in: 0, out: 1))
        set(0x35, OpcodeInfo("CALLDATALOAD", in: 1, out: 1))
        set(0x36, OpcodeInfo("CALLDATASIZE", in: 0, out: 1))
        set(0x37, OpcodeInfo("CALLDATACOPY", in: 3, out: 0))
        set(0x38, OpcodeInfo("CODESIZE", in: 0, out: 1))
        set(0x39, OpcodeInfo("CODECOPY", in: 3, out: 0))
        set(0x3a, OpcodeInfo("GASPRICE", in: 0, out: 1))
        set(0x3b, OpcodeInfo("EXTCODESIZE", in: 1, out: 1))
        set(0x3c, OpcodeInfo("EXTCODECOPY", in: 4, out: 0))
        set(0x3d, OpcodeInfo("RETURNDATASIZE", in: 0, out: 1, since: .byzantium))  // EIP-211
        set(0x3e, OpcodeInfo("RETURNDATACOPY", in: 3, out: 0, since: .byzantium))  // EIP-211
        set(0x3f, OpcodeInfo("EXTCODEHASH", in: 1, out: 1, since: .constantinople))  // EIP-1052

        // 0x40 – 0x4a: block information
        set(0x40, OpcodeInfo("BLOCKHASH", in: 1, out: 1))
        set(0x41, OpcodeInfo("COINBASE", in: 0, out: 1))
        set(0x42, OpcodeInfo("TIMESTAMP", in: 0, out: 1))
        set(0x43, OpcodeInfo("NUMBER", in: 0, out: 1))
        set(0x44, OpcodeInfo("PREVRANDAO", in: 0, out: 1))  // DIFFICULTY before Paris (EIP-4399)
        set(0x45, OpcodeInfo("GASLIMIT", in: 0, out: 1))
        set(0x46, OpcodeInfo("CHAINID", in: 0, out: 1, since: .istanbul))  // EIP-1344
        set(0x47, OpcodeInfo("SELFBALANCE", in: 0, out: 1, since: .istanbul))  // EIP-1884
        set(0x48, OpcodeInfo("BASEFEE", in: 0, out: 1, since: .london))  // EIP-3198
        set(0x49, OpcodeInfo("BLOBHASH", in: 1, out: 1, since: .cancun))  // EIP-4844
        set(0x4a, OpcodeInfo("BLOBBASEFEE", in: 0, out: 1, since: .cancun))  // EIP-7516

        // 0x50 – 0x5f: stack, memory, storage and flow
        set(0x50, OpcodeInfo("POP", in: 1, out: 0))
        set(0x51, OpcodeInfo("MLOAD", in: 1, out: 1))
        set(0x52, OpcodeInfo("MSTORE", in: 2, out: 0))
        set(0x53, OpcodeInfo("MSTORE8", in: 2, out: 0))
        set(0x54, OpcodeInfo("SLOAD", in: 1, out: 1))
        set(0x55, OpcodeInfo("SSTORE", in: 2, out: 0))
        set(0x56, OpcodeInfo("JUMP", in: 1, out: 0))
        set(0x57, OpcodeInfo("JUMPI", in: 2, out: 0))
        set(0x58, OpcodeInfo("PC", in: 0, out: 1))
        set(0x59, OpcodeInfo("MSIZE", in: 0, out: 1))
        set(0x5a, OpcodeInfo("GAS", in: 0, out: 1))
        set(0x5b, OpcodeInfo("JUMPDEST", in: 0, out: 0))
        set(0x5c, OpcodeInfo("TLOAD", in: 1, out: 1, since: .cancun))  // EIP-1153
        set(0x5d, OpcodeInfo("TSTORE", in: 2, out: 0, since: .cancun))  // EIP-1153
        set(0x5e, OpcodeInfo("MCOPY", in: 3, out: 0, since: .cancun))  // EIP-5656
        set(0x5f, OpcodeInfo("PUSH0", in: 0, out: 1, since: .shanghai))  // EIP-3855

        // 0x60 – 0x9f: PUSH1–PUSH32, DUP1–DUP16, SWAP1–SWAP16
        for n in 1...32 { set(UInt8(0x5f + n), OpcodeInfo("PUSH\(n)", immediate: n, in: 0, out: 1)) }
        for n in 1...16 { set(UInt8(0x7f + n), OpcodeInfo("DUP\(n)", in: n, out: n + 1)) }
        for n in 1...16 { set(UInt8(0x8f + n), OpcodeInfo("SWAP\(n)", in: n + 1, out: n + 1)) }

        // 0xa0 – 0xa4: logs
        for n in 0...4 { set(UInt8(0xa0 + n), OpcodeInfo("LOG\(n)", in: n + 2, out: 0)) }

        // 0xf0 – 0xff: system
        set(0xf0, OpcodeInfo("CREATE", in: 3, out: 1))
        set(0xf1, OpcodeInfo("CALL", in: 7, out: 1))
        set(0xf2, OpcodeInfo("CALLCODE", in: 7, out: 1))
        set(0xf3, OpcodeInfo("RETURN", in: 2, out: 0))
        set(0xf4, OpcodeInfo("DELEGATECALL", in: 6, out: 1, since: .homestead))  // EIP-7
        set(0xf5, OpcodeInfo("CREATE2", in: 4, out: 1, since: .constantinople))  // EIP-1014
        set(0xfa, OpcodeInfo("STATICCALL", in: 6, out: 1, since: .byzantium))  // EIP-214
        set(0xfd, OpcodeInfo("REVERT", in: 2, out: 0, since: .byzantium))  // EIP-140
        set(0xfe, OpcodeInfo("INVALID", in: 0, out: 0))  // EIP-141: designated invalid; always halts
        set(0xff, OpcodeInfo("SELFDESTRUCT", in: 1, out: 0))
        return t
    }
}
