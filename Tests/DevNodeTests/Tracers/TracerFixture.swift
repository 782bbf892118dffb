import EVM
import EthereumPrimitives
import Foundation
import Testing

/// Small contracts, written as bytecode, that exercise every kind of frame the tracers report, and the gas each
/// frame uses, worked out by hand from the Cancun gas schedule (the comments show the sums). `main` (called with
/// the 4-byte calldata 0x12345678) writes two slots, then in order:
///
/// 1. CALLs `logger` (gas 0xffff, input the 4 calldata bytes): it stores 42 at memory 0 and emits LOG1(topic 0xaa,
///    data that word): 3 + 3 + (3 + 3 memory) + 3 + 3 + 3 + (375 + 375 + 8·32) = 1,027 gas.
/// 2. STATICCALLs the identity precompile (0x04) on the 4 bytes: 15 + 3·1 = 18 gas, output the same 4 bytes.
/// 3. DELEGATECALLs `logger`: the same 1,027 gas, the log now from `main`.
/// 4. CALLs `reverter` with 36 bytes: LOG0 (3 + 3 + 375), then CODECOPY of its 100-byte `Error("nope")` payload
///    (3 + 3 + 3 + 3 + 3·4 + 3·4 memory) and REVERT (3 + 3): 381 + 36 + 6 = 423 gas; its log is undone.
/// 5. CALLs `creator` (no input): PUSH10 + PUSH1 + MSTORE (3 + 3 + 6), three PUSH1 (9), CREATE (32,000 + 2 for
///    one word of init code) leave 65,535 − 32,023 = 33,512; the child gets all but a 64th: 33,512 − 523 = 32,989.
///    The init code (PUSH1, PUSH1, MSTORE8 with memory, PUSH1, PUSH1, RETURN: 18 gas) returns the 1-byte code
///    0x00 (deposit 200): the CREATE frame uses 218. `creator` then POPs (2): 32,023 + 218 + 2 = 32,243 gas.
/// 6. CALLs `destructor` (balance 100 wei): PUSH2 (3) and SELFDESTRUCT to the absent 0x…beef (5,000 + 2,600 cold
///    + 25,000 new account, since value moves) = 32,603 gas; a SELFDESTRUCT frame carries the 100 wei.
/// 7. CALLs `logger` with 100 gas: 21 gas of pushes and MSTORE, then LOG1 needs 1,006: out of gas, all 100 used.
/// 8. CALLCODEs `logger`: 1,027 gas again, the log from `main`.
/// 9. CALLs `creator2`, which does what `creator` does with CREATE2 (salt 1): four PUSH1 (12) instead of three, and
///    CREATE2 costs 32,000 + 2 + 6 for hashing one word: 65,535 − 32,032 = 33,503 left, the child gets 32,980 and
///    uses 218; `creator2` uses 32,032 + 218 + 2 = 32,252.
///
/// then emits LOG0 and stops.
enum TracerFixture {
    static let main = "0x0000000000000000000000000000000000001001"
    static let logger = "0x0000000000000000000000000000000000001002"
    static let reverter = "0x0000000000000000000000000000000000001003"
    static let destructor = "0x0000000000000000000000000000000000001004"
    static let creator = "0x0000000000000000000000000000000000001005"
    static let creator2 = "0x0000000000000000000000000000000000001006"
    static let beneficiary = "0x000000000000000000000000000000000000beef"
    static let identity = "0x0000000000000000000000000000000000000004"
    static let calldata = "0x12345678"

    /// PUSH1 42, PUSH1 0, MSTORE; PUSH1 0xaa (topic), PUSH1 32, PUSH1 0, LOG1; STOP.
    static let loggerCode = "0x602a60005260aa60206000a100"

    /// `Error("nope")`, as Solidity's `revert("nope")` encodes it.
    static let nopeRevert =
        "08c379a0" + "0000000000000000000000000000000000000000000000000000000000000020"
        + "0000000000000000000000000000000000000000000000000000000000000004"
        + "6e6f706500000000000000000000000000000000000000000000000000000000"

    /// LOG0(0, 0); CODECOPY(0, 17, 100); REVERT(0, 100); then the 100-byte payload at offset 17.
    static let reverterCode = "0x" + "60006000a0" + "606460116000" + "39" + "60646000fd" + nopeRevert

    /// The init code `creator` runs: MSTORE8(0, 0); RETURN(0, 1): deploys the one-byte code 0x00.
    static let initCode = "60006000536001" + "6000f3"

    /// PUSH10 init, PUSH1 0, MSTORE (the init code at bytes 22..<32); CREATE(0, 22, 10); POP; STOP.
    static let creatorCode = "0x69" + initCode + "600052" + "600a" + "6016" + "6000" + "f0" + "50" + "00"

    /// The same with CREATE2(0, 22, 10, salt 1).
    static let creator2Code = "0x69" + initCode + "600052" + "6001" + "600a" + "6016" + "6000" + "f5" + "50" + "00"

    /// PUSH2 0xbeef, SELFDESTRUCT.
    static let destructorCode = "0x61beefff"

    static let mainCode =
        "0x"
        + "6008600155" + "6000600255"  // SSTORE(1, 8), SSTORE(2, 0)
        + "60046000600037"  // CALLDATACOPY(0, 0, 4)
        + "60006000600460006000611002" + "61ffff" + "f1" + "50"  // 1. CALL logger, in [0, 4)
        + "6000600060046000" + "6004" + "61ffff" + "fa" + "50"  // 2. STATICCALL identity, in [0, 4)
        + "6000600060046000" + "611002" + "61ffff" + "f4" + "50"  // 3. DELEGATECALL logger, in [0, 4)
        + "60006000602460006000611003" + "61ffff" + "f1" + "50"  // 4. CALL reverter, in [0, 36)
        + "60006000600060006000611005" + "61ffff" + "f1" + "50"  // 5. CALL creator
        + "60006000600060006000611004" + "61ffff" + "f1" + "50"  // 6. CALL destructor
        + "60006000600460006000611002" + "6064" + "f1" + "50"  // 7. CALL logger with 100 gas
        + "60006000600460006000611002" + "61ffff" + "f2" + "50"  // 8. CALLCODE logger, in [0, 4)
        + "60006000600060006000611006" + "61ffff" + "f1" + "50"  // 9. CALL creator2
        + "60006000a0" + "00"  // LOG0(0, 0); STOP

    /// The gas of the transaction.
    static let gas: UInt64 = 1_000_000

    /// The contract `creator` makes: its address at nonce 0 (set by anvil_setCode, it has sent nothing).
    static var created: String {
        ContractAddress.create(sender: address(creator), nonce: 0).lowercasedHex
    }

    /// The contract `creator2` makes.
    static var created2: String {
        ContractAddress.create2(
            sender: address(creator2), salt: .one, initCodeHash: Keccak256.hash((try? Hex.decode(initCode)) ?? [])
        ).lowercasedHex
    }

    static func address(_ text: String) -> Address { Address(bytes: (try? Hex.decode(text)) ?? []) ?? .zero }

    /// Puts the contracts on the harness's chain (slot 1 = 7 and slot 2 = 5 in `main`, 100 wei in `destructor`)
    /// in a block of their own, then sends the transaction and returns its hash.
    static func install(_ h: HandlerHarness) async throws {
        for (address, code) in [
            (main, mainCode), (logger, loggerCode), (reverter, reverterCode), (creator, creatorCode),
            (destructor, destructorCode), (creator2, creator2Code),
        ] {
            _ = try await h.result("anvil_setCode", "[\"\(address)\",\"\(code)\"]")
        }
        _ = try await h.result("anvil_setStorageAt", "[\"\(main)\",\"0x1\",\"0x\(String(repeating: "0", count: 63))7\"]")
        _ = try await h.result("anvil_setStorageAt", "[\"\(main)\",\"0x2\",\"0x\(String(repeating: "0", count: 63))5\"]")
        _ = try await h.result("anvil_setBalance", "[\"\(destructor)\",\"0x64\"]")
        _ = try await h.result("evm_mine", "[]")
    }

    /// A chain (Cancun, the fork the hand-worked gas follows) with the contracts, and the hash of the transaction
    /// calling `main`, mined in a block of its own.
    static func traced() async throws -> (HandlerHarness, String) {
        let h = try await HandlerHarness.make(hardfork: .cancun)
        try await install(h)
        let hash = try await h.send(to: main, data: calldata, gas: "0x" + String(gas, radix: 16))
        return (h, hash)
    }
}
