/// The body an opcode runs, as named by its ``OpcodeDefinition``; the interpreter loop's `switch`
/// over this enum (`InterpreterLoop.swift`) is exhaustive, so every operation has an implementation.
///
/// One case per opcode, PUSHn, DUPn, SWAPn and LOGn included, so each body is compiled with its
/// operand count as a constant.
public enum Operation: UInt8, Sendable, CaseIterable {
    // 0x00–0x0b
    case stop, add, mul, sub, div, sdiv, mod, smod, addmod, mulmod, exp, signextend
    // 0x10–0x1e, 0x20
    case lt, gt, slt, sgt, eq, iszero, and, or, xor, not, byte, shl, shr, sar, clz
    case keccak256
    // 0x30–0x3f
    case address, balance, origin, caller, callvalue, calldataload, calldatasize, calldatacopy
    case codesize, codecopy, gasprice, extcodesize, extcodecopy, returndatasize, returndatacopy, extcodehash
    // 0x40–0x4a
    case blockhash, coinbase, timestamp, number, prevrandao, gaslimit, chainid, selfbalance, basefee
    case blobhash, blobbasefee
    // 0x50–0x5f
    case pop, mload, mstore, mstore8, sload, sstore, jump, jumpi, pc, msize, gas, jumpdest
    case tload, tstore, mcopy, push0
    // 0x60–0x7f
    case push1, push2, push3, push4, push5, push6, push7, push8, push9, push10, push11, push12, push13
    case push14, push15, push16, push17, push18, push19, push20, push21, push22, push23, push24, push25
    case push26, push27, push28, push29, push30, push31, push32
    // 0x80–0x9f
    case dup1, dup2, dup3, dup4, dup5, dup6, dup7, dup8, dup9, dup10, dup11, dup12, dup13, dup14, dup15, dup16
    case swap1, swap2, swap3, swap4, swap5, swap6, swap7, swap8, swap9, swap10, swap11, swap12, swap13
    case swap14, swap15, swap16
    // 0xa0–0xa4
    case log0, log1, log2, log3, log4
    // 0xf0–0xff
    case create, call, callCode, `return`, delegateCall, create2, staticCall, revert, selfdestruct
    /// INVALID (0xFE, EIP-141), and every byte no fork defines: halts exceptionally.
    case invalid

    /// PUSHn for `n` in 1…32.
    static func push(_ n: Int) -> Operation { Operation(rawValue: Operation.push1.rawValue + UInt8(n - 1))! }
    /// DUPn for `n` in 1…16.
    static func dup(_ n: Int) -> Operation { Operation(rawValue: Operation.dup1.rawValue + UInt8(n - 1))! }
    /// SWAPn for `n` in 1…16.
    static func swap(_ n: Int) -> Operation { Operation(rawValue: Operation.swap1.rawValue + UInt8(n - 1))! }
    /// LOGn for `n` in 0…4.
    static func log(_ n: Int) -> Operation { Operation(rawValue: Operation.log0.rawValue + UInt8(n))! }
}
