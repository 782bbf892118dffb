import EthereumPrimitives

/// Static (constant) gas per opcode and fork: the part of an instruction's cost that does not depend
/// on its operands, charged by the interpreter loop before the instruction runs.
///
/// Each fork's table is the previous fork's with the entries an EIP changed patched in, so a reader
/// finds every repricing in one place. Dynamic parts (memory expansion, copy words, cold access
/// surcharges, SSTORE, CALL value and new-account costs, EXP bytes) are charged by the instructions.
public enum StaticGas {
    /// The static gas of every opcode in `fork` (256 entries; 0 for opcodes the fork does not define).
    public static func table(for fork: Hardfork) -> [Int64] {
        switch fork {
        case .frontier: return frontier
        case .homestead: return homestead
        case .tangerineWhistle: return tangerineWhistle
        case .spuriousDragon: return tangerineWhistle
        case .byzantium: return byzantium
        case .constantinople, .petersburg: return constantinople
        case .istanbul, .muirGlacier: return istanbul
        case .berlin, .london, .arrowGlacier, .grayGlacier, .paris: return berlin
        case .shanghai: return shanghai
        case .cancun, .prague: return cancun
        case .osaka: return osaka
        }
    }

    // Yellow Paper fee names: G_zero 0, G_base 2, G_verylow 3, G_low 5, G_mid 8, G_high 10.
    static let frontier: [Int64] = {
        var g = [Int64](repeating: 0, count: 256)
        func set(_ ops: [UInt8], _ cost: Int64) { for op in ops { g[Int(op)] = cost } }
        set([0x00], 0)  // STOP
        set([0x01, 0x03], 3)  // ADD SUB
        set([0x02, 0x04, 0x05, 0x06, 0x07, 0x0b], 5)  // MUL DIV SDIV MOD SMOD SIGNEXTEND
        set([0x08, 0x09], 8)  // ADDMOD MULMOD
        set([0x0a], 10)  // EXP (+ per exponent byte, dynamic)
        set(Array(0x10...0x1a), 3)  // comparisons, bitwise, BYTE
        set([0x20], 30)  // KECCAK256 (+ 6 per word)
        set([0x30, 0x32, 0x33, 0x34, 0x36, 0x38, 0x3a], 2)  // ADDRESS ORIGIN CALLER CALLVALUE CALLDATASIZE CODESIZE GASPRICE
        set([0x31], 20)  // BALANCE
        set([0x35], 3)  // CALLDATALOAD
        set([0x37, 0x39], 3)  // CALLDATACOPY CODECOPY (+ 3 per word)
        set([0x3b, 0x3c], 20)  // EXTCODESIZE EXTCODECOPY
        set([0x40], 20)  // BLOCKHASH
        set([0x41, 0x42, 0x43, 0x44, 0x45], 2)  // COINBASE TIMESTAMP NUMBER DIFFICULTY GASLIMIT
        set([0x50], 2)  // POP
        set([0x51, 0x52, 0x53], 3)  // MLOAD MSTORE MSTORE8
        set([0x54], 50)  // SLOAD
        set([0x55], 0)  // SSTORE: all dynamic
        set([0x56], 8)  // JUMP
        set([0x57], 10)  // JUMPI
        set([0x58, 0x59, 0x5a], 2)  // PC MSIZE GAS
        set([0x5b], 1)  // JUMPDEST
        set(Array(0x60...0x9f), 3)  // PUSH1–32, DUP1–16, SWAP1–16
        for n in 0...4 { g[0xa0 + n] = 375 + 375 * Int64(n) }  // LOGn: 375 + 375 per topic (+ 8 per byte)
        set([0xf0], 32000)  // CREATE
        set([0xf1, 0xf2], 40)  // CALL CALLCODE
        set([0xf3], 0)  // RETURN
        set([0xff], 0)  // SELFDESTRUCT
        return g
    }()

    static let homestead: [Int64] = patch(frontier) { g in
        g[0xf4] = 40  // EIP-7: DELEGATECALL
    }

    static let tangerineWhistle: [Int64] = patch(homestead) { g in
        // EIP-150: IO-heavy operations repriced.
        g[0x31] = 400  // BALANCE
        g[0x3b] = 700  // EXTCODESIZE
        g[0x3c] = 700  // EXTCODECOPY
        g[0x54] = 200  // SLOAD
        g[0xf1] = 700  // CALL
        g[0xf2] = 700  // CALLCODE
        g[0xf4] = 700  // DELEGATECALL
        g[0xff] = 5000  // SELFDESTRUCT
    }

    static let byzantium: [Int64] = patch(tangerineWhistle) { g in
        g[0x3d] = 2  // EIP-211: RETURNDATASIZE
        g[0x3e] = 3  // EIP-211: RETURNDATACOPY (+ 3 per word)
        g[0xfa] = 700  // EIP-214: STATICCALL
        g[0xfd] = 0  // EIP-140: REVERT
    }

    static let constantinople: [Int64] = patch(byzantium) { g in
        g[0x1b] = 3  // EIP-145: SHL
        g[0x1c] = 3  // EIP-145: SHR
        g[0x1d] = 3  // EIP-145: SAR
        g[0x3f] = 400  // EIP-1052: EXTCODEHASH
        g[0xf5] = 32000  // EIP-1014: CREATE2 (+ 6 per word of init code hashed)
    }

    static let istanbul: [Int64] = patch(constantinople) { g in
        g[0x31] = 700  // EIP-1884: BALANCE
        g[0x3f] = 700  // EIP-1884: EXTCODEHASH
        g[0x54] = 800  // EIP-1884 (and EIP-2200's SLOAD_GAS): SLOAD
        g[0x46] = 2  // EIP-1344: CHAINID
        g[0x47] = 5  // EIP-1884: SELFBALANCE
    }

    static let berlin: [Int64] = patch(istanbul) { g in
        // EIP-2929: state access is 100 (WARM_STORAGE_READ_COST) when warm; the cold surcharge
        // (2600 − 100 for accounts, 2100 − 100 for slots) is dynamic.
        for op: UInt8 in [0x31, 0x3b, 0x3c, 0x3f, 0x54, 0xf1, 0xf2, 0xf4, 0xfa] { g[Int(op)] = 100 }
        g[0x48] = 2  // EIP-3198 (London): BASEFEE; undefined before London, so harmless here.
    }

    static let shanghai: [Int64] = patch(berlin) { g in
        g[0x5f] = 2  // EIP-3855: PUSH0
    }

    static let cancun: [Int64] = patch(shanghai) { g in
        g[0x5c] = 100  // EIP-1153: TLOAD
        g[0x5d] = 100  // EIP-1153: TSTORE
        g[0x5e] = 3  // EIP-5656: MCOPY (+ 3 per word)
        g[0x49] = 3  // EIP-4844: BLOBHASH
        g[0x4a] = 2  // EIP-7516: BLOBBASEFEE
    }

    static let osaka: [Int64] = patch(cancun) { g in
        g[0x1e] = 5  // EIP-7939: CLZ
    }

    private static func patch(_ base: [Int64], _ change: (inout [Int64]) -> Void) -> [Int64] {
        var g = base
        change(&g)
        return g
    }
}
