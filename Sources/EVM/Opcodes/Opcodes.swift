import EthereumPrimitives

/// Every opcode's definition, the single source of the opcode metadata, the per-fork static gas and
/// the per-fork instruction tables.
///
/// Static gas follows the Yellow Paper's fee names at Frontier (G_zero 0, G_base 2, G_verylow 3,
/// G_low 5, G_mid 8, G_high 10); each later entry of a record is a repricing, with its EIP. A new
/// fork's opcode is one new record; a repricing is one new ``GasPatch`` on the records it touches.
public enum Opcodes {
    /// The definitions, in byte order.
    public static let definitions: [OpcodeDefinition] = makeDefinitions()

    /// Entry `i` is the definition of opcode byte `i`, or nil for a byte no fork defines.
    public static let table: [OpcodeDefinition?] = {
        var table = [OpcodeDefinition?](repeating: nil, count: 256)
        for definition in definitions {
            precondition(table[Int(definition.byte)] == nil, "opcode \(definition.name) defined twice")
            table[Int(definition.byte)] = definition
        }
        return table
    }()

    /// Entry `i` is the operation of opcode byte `i` (``Operation/invalid`` for a byte no fork defines).
    public static let operationByByte: [Operation] = table.map { $0?.operation ?? .invalid }

    /// The definition of `opcode`, or nil when no fork defines it.
    public static func info(_ opcode: UInt8) -> OpcodeDefinition? { table[Int(opcode)] }

    /// The mnemonic of `opcode`, or `"opcode 0xNN"` for an undefined byte (as traces print it).
    public static func name(_ opcode: UInt8) -> String {
        if let definition = table[Int(opcode)] { return definition.name }
        let hex = String(opcode, radix: 16)
        return "opcode 0x" + (hex.count == 1 ? "0" + hex : hex)
    }

    /// The byte of the opcode named `name` (case-insensitive), or nil.
    public static func byte(named name: String) -> UInt8? {
        let upper = name.uppercased()
        return definitions.first { $0.name == upper }?.byte
    }

    private static func makeDefinitions() -> [OpcodeDefinition] {
        typealias D = OpcodeDefinition
        let berlinWarm = GasPatch(.berlin, 100, eip: 2929)  // EIP-2929: warm access; the cold surcharge is dynamic
        var d: [OpcodeDefinition] = [
            // 0x00–0x0b: stop and arithmetic
            D(0x00, "STOP", in: 0, out: 0, .stop, gas: 0),
            D(0x01, "ADD", in: 2, out: 1, .add, gas: 3),
            D(0x02, "MUL", in: 2, out: 1, .mul, gas: 5),
            D(0x03, "SUB", in: 2, out: 1, .sub, gas: 3),
            D(0x04, "DIV", in: 2, out: 1, .div, gas: 5),
            D(0x05, "SDIV", in: 2, out: 1, .sdiv, gas: 5),
            D(0x06, "MOD", in: 2, out: 1, .mod, gas: 5),
            D(0x07, "SMOD", in: 2, out: 1, .smod, gas: 5),
            D(0x08, "ADDMOD", in: 3, out: 1, .addmod, gas: 8),
            D(0x09, "MULMOD", in: 3, out: 1, .mulmod, gas: 8),
            D(0x0a, "EXP", in: 2, out: 1, .exp, gas: 10),  // + 10 per exponent byte, 50 from EIP-160
            D(0x0b, "SIGNEXTEND", in: 2, out: 1, .signextend, gas: 5),

            // 0x10–0x1e: comparison and bitwise logic
            D(0x10, "LT", in: 2, out: 1, .lt, gas: 3),
            D(0x11, "GT", in: 2, out: 1, .gt, gas: 3),
            D(0x12, "SLT", in: 2, out: 1, .slt, gas: 3),
            D(0x13, "SGT", in: 2, out: 1, .sgt, gas: 3),
            D(0x14, "EQ", in: 2, out: 1, .eq, gas: 3),
            D(0x15, "ISZERO", in: 1, out: 1, .iszero, gas: 3),
            D(0x16, "AND", in: 2, out: 1, .and, gas: 3),
            D(0x17, "OR", in: 2, out: 1, .or, gas: 3),
            D(0x18, "XOR", in: 2, out: 1, .xor, gas: 3),
            D(0x19, "NOT", in: 1, out: 1, .not, gas: 3),
            D(0x1a, "BYTE", in: 2, out: 1, .byte, gas: 3),
            D(0x1b, "SHL", in: 2, out: 1, .shl, gas: 3, since: .constantinople, eip: 145),
            D(0x1c, "SHR", in: 2, out: 1, .shr, gas: 3, since: .constantinople, eip: 145),
            D(0x1d, "SAR", in: 2, out: 1, .sar, gas: 3, since: .constantinople, eip: 145),
            D(0x1e, "CLZ", in: 1, out: 1, .clz, gas: 5, since: .osaka, eip: 7939),

            D(0x20, "KECCAK256", in: 2, out: 1, .keccak256, gas: 30),  // + 6 per word

            // 0x30–0x3f: environment
            D(0x30, "ADDRESS", in: 0, out: 1, .address, gas: 2),
            D(0x31, "BALANCE", in: 1, out: 1, .balance, gas: [
                GasPatch(.frontier, 20), GasPatch(.tangerineWhistle, 400, eip: 150),
                GasPatch(.istanbul, 700, eip: 1884), berlinWarm]),
            D(0x32, "ORIGIN", in: 0, out: 1, .origin, gas: 2),
            D(0x33, "CALLER", in: 0, out: 1, .caller, gas: 2),
            D(0x34, "CALLVALUE", in: 0, out: 1, .callvalue, gas: 2),
            D(0x35, "CALLDATALOAD", in: 1, out: 1, .calldataload, gas: 3),
            D(0x36, "CALLDATASIZE", in: 0, out: 1, .calldatasize, gas: 2),
            D(0x37, "CALLDATACOPY", in: 3, out: 0, .calldatacopy, gas: 3),  // + 3 per word
            D(0x38, "CODESIZE", in: 0, out: 1, .codesize, gas: 2),
            D(0x39, "CODECOPY", in: 3, out: 0, .codecopy, gas: 3),  // + 3 per word
            D(0x3a, "GASPRICE", in: 0, out: 1, .gasprice, gas: 2),
            D(0x3b, "EXTCODESIZE", in: 1, out: 1, .extcodesize, gas: [
                GasPatch(.frontier, 20), GasPatch(.tangerineWhistle, 700, eip: 150), berlinWarm]),
            D(0x3c, "EXTCODECOPY", in: 4, out: 0, .extcodecopy, gas: [
                GasPatch(.frontier, 20), GasPatch(.tangerineWhistle, 700, eip: 150), berlinWarm]),  // + 3 per word
            D(0x3d, "RETURNDATASIZE", in: 0, out: 1, .returndatasize, gas: 2, since: .byzantium, eip: 211),
            D(0x3e, "RETURNDATACOPY", in: 3, out: 0, .returndatacopy, gas: 3, since: .byzantium, eip: 211),
            D(0x3f, "EXTCODEHASH", in: 1, out: 1, .extcodehash, gas: [
                GasPatch(.constantinople, 400, eip: 1052), GasPatch(.istanbul, 700, eip: 1884), berlinWarm]),

            // 0x40–0x4a: block information
            D(0x40, "BLOCKHASH", in: 1, out: 1, .blockhash, gas: 20),
            D(0x41, "COINBASE", in: 0, out: 1, .coinbase, gas: 2),
            D(0x42, "TIMESTAMP", in: 0, out: 1, .timestamp, gas: 2),
            D(0x43, "NUMBER", in: 0, out: 1, .number, gas: 2),
            D(0x44, "PREVRANDAO", in: 0, out: 1, .prevrandao, gas: 2),  // DIFFICULTY before Paris (EIP-4399)
            D(0x45, "GASLIMIT", in: 0, out: 1, .gaslimit, gas: 2),
            D(0x46, "CHAINID", in: 0, out: 1, .chainid, gas: 2, since: .istanbul, eip: 1344),
            D(0x47, "SELFBALANCE", in: 0, out: 1, .selfbalance, gas: 5, since: .istanbul, eip: 1884),
            D(0x48, "BASEFEE", in: 0, out: 1, .basefee, gas: 2, since: .london, eip: 3198),
            D(0x49, "BLOBHASH", in: 1, out: 1, .blobhash, gas: 3, since: .cancun, eip: 4844),
            D(0x4a, "BLOBBASEFEE", in: 0, out: 1, .blobbasefee, gas: 2, since: .cancun, eip: 7516),

            // 0x50–0x5f: stack, memory, storage and flow
            D(0x50, "POP", in: 1, out: 0, .pop, gas: 2),
            D(0x51, "MLOAD", in: 1, out: 1, .mload, gas: 3),
            D(0x52, "MSTORE", in: 2, out: 0, .mstore, gas: 3),
            D(0x53, "MSTORE8", in: 2, out: 0, .mstore8, gas: 3),
            D(0x54, "SLOAD", in: 1, out: 1, .sload, gas: [
                GasPatch(.frontier, 50), GasPatch(.tangerineWhistle, 200, eip: 150),
                GasPatch(.istanbul, 800, eip: 1884), berlinWarm]),
            D(0x55, "SSTORE", in: 2, out: 0, .sstore, gas: 0),  // all dynamic (ForkRules.sstore)
            D(0x56, "JUMP", in: 1, out: 0, .jump, gas: 8),
            D(0x57, "JUMPI", in: 2, out: 0, .jumpi, gas: 10),
            D(0x58, "PC", in: 0, out: 1, .pc, gas: 2),
            D(0x59, "MSIZE", in: 0, out: 1, .msize, gas: 2),
            D(0x5a, "GAS", in: 0, out: 1, .gas, gas: 2),
            D(0x5b, "JUMPDEST", in: 0, out: 0, .jumpdest, gas: 1),
            D(0x5c, "TLOAD", in: 1, out: 1, .tload, gas: 100, since: .cancun, eip: 1153),
            D(0x5d, "TSTORE", in: 2, out: 0, .tstore, gas: 100, since: .cancun, eip: 1153),
            D(0x5e, "MCOPY", in: 3, out: 0, .mcopy, gas: 3, since: .cancun, eip: 5656),  // + 3 per word
            D(0x5f, "PUSH0", in: 0, out: 1, .push0, gas: 2, since: .shanghai, eip: 3855),
        ]

        // 0x60–0x9f: PUSH1–PUSH32, DUP1–DUP16, SWAP1–SWAP16
        for n in 1...32 { d.append(D(UInt8(0x5f + n), "PUSH\(n)", immediate: n, in: 0, out: 1, .push(n), gas: 3)) }
        for n in 1...16 { d.append(D(UInt8(0x7f + n), "DUP\(n)", in: n, out: n + 1, .dup(n), gas: 3)) }
        for n in 1...16 { d.append(D(UInt8(0x8f + n), "SWAP\(n)", in: n + 1, out: n + 1, .swap(n), gas: 3)) }

        // 0xa0–0xa4: LOG0–LOG4, 375 + 375 per topic (+ 8 per data byte)
        for n in 0...4 { d.append(D(UInt8(0xa0 + n), "LOG\(n)", in: n + 2, out: 0, .log(n), gas: 375 + 375 * Int64(n))) }

        let callGas = [GasPatch(.frontier, 40), GasPatch(.tangerineWhistle, 700, eip: 150), berlinWarm]
        d += [
            // 0xf0–0xff: system
            D(0xf0, "CREATE", in: 3, out: 1, .create, gas: 32_000),  // + 2 per init-code word from EIP-3860
            D(0xf1, "CALL", in: 7, out: 1, .call, gas: callGas),
            D(0xf2, "CALLCODE", in: 7, out: 1, .callCode, gas: callGas),
            D(0xf3, "RETURN", in: 2, out: 0, .return, gas: 0),
            D(0xf4, "DELEGATECALL", in: 6, out: 1, .delegateCall, gas: [
                GasPatch(.homestead, 40, eip: 7), GasPatch(.tangerineWhistle, 700, eip: 150), berlinWarm]),
            D(0xf5, "CREATE2", in: 4, out: 1, .create2, gas: 32_000, since: .constantinople, eip: 1014),  // + 6 per word hashed
            D(0xfa, "STATICCALL", in: 6, out: 1, .staticCall, gas: [
                GasPatch(.byzantium, 700, eip: 214), berlinWarm]),
            D(0xfd, "REVERT", in: 2, out: 0, .revert, gas: 0, since: .byzantium, eip: 140),
            D(0xfe, "INVALID", in: 0, out: 0, .invalid, gas: 0, eip: 141),  // designated invalid: always halts
            D(0xff, "SELFDESTRUCT", in: 1, out: 0, .selfdestruct, gas: [
                GasPatch(.frontier, 0), GasPatch(.tangerineWhistle, 5_000, eip: 150)]),
        ]
        return d
    }
}
