import Chain
import DevNode
import EthereumPrimitives
import EthereumTransactions
import EthereumWire
import Foundation
import Testing

/// anvil's daily names (issue 31): `anvil_dropAllTransactions`, `anvil_setChainId`, `anvil_setTime` / `evm_setTime`,
/// `anvil_getAutomine` (`hardhat_getAutomine`), `anvil_getIntervalMining`, `anvil_addBalance`, `anvil_dealERC20` and
/// `anvil_setERC20Allowance`: each decoded (and refused) as anvil's `EthRequest` decodes it, and answered with
/// anvil's semantics on an in-process handler. The ERC-20 methods run against two tokens assembled here with the two
/// common storage layouts (Solidity's `keccak(key . slot)` and Vyper's `keccak(slot . key)`, the latter reading
/// another slot first); the slot they must write is computed here from the layout, independently of the search.
@Suite struct AnvilDailyMethodTests {
    static let stranger = "0x1111111111111111111111111111111111111111"

    func decode(_ method: String, _ params: String) throws -> RPCRequest {
        try RPCRequest.decode(method: method, params: try JSONValue(parsing: Array(params.utf8)))
    }

    func decodeError(_ method: String, _ params: String) -> Int? {
        do {
            _ = try RPCRequest.decode(method: method, params: try JSONValue(parsing: Array(params.utf8)))
            return nil
        } catch let error as JSONRPCErrorObject {
            return error.code
        } catch {
            return 0
        }
    }

    @Test func eachNameDecodesAsAnvilDecodesIt() throws {
        let a = try Address(HandlerHarness.account0)
        let b = try Address(HandlerHarness.account1)
        let c = try Address(Self.stranger)
        #expect(try decode("anvil_dropAllTransactions", "[]") == .node(.dropAllTransactions))
        #expect(try decode("hardhat_dropAllTransactions", "[]") == .node(.dropAllTransactions))
        #expect(try decode("anvil_setChainId", "[\"0x539\"]") == .node(.setChainId(1337)))
        #expect(try decode("anvil_setChainId", "[1337]") == .node(.setChainId(1337)))
        #expect(try decode("anvil_setTime", "[\"0x6553f100\"]") == .node(.setTime(1_700_000_000)))
        #expect(try decode("evm_setTime", "[1700000000]") == .node(.setTime(1_700_000_000)))
        // Above 10^12 it is milliseconds (Ganache's convention, which anvil follows).
        #expect(try decode("evm_setTime", "[1700000000123]") == .node(.setTime(1_700_000_000)))
        #expect(try decode("anvil_getAutomine", "[]") == .node(.getAutomine))
        #expect(try decode("hardhat_getAutomine", "[]") == .node(.getAutomine))
        #expect(try decode("anvil_getIntervalMining", "[]") == .node(.getIntervalMining))
        #expect(try decode("anvil_addBalance", "[\"\(Self.stranger)\",\"0x10\"]") == .node(.addBalance(c, UInt256(16))))
        #expect(try decode("hardhat_addBalance", "[\"\(Self.stranger)\",16]") == .node(.addBalance(c, UInt256(16))))
        let deal = RPCRequest.node(.dealERC20(owner: a, token: c, amount: UInt256(5)))
        for name in ["anvil_dealERC20", "hardhat_dealERC20", "anvil_setERC20Balance"] {
            #expect(try decode(name, "[\"\(HandlerHarness.account0)\",\"\(Self.stranger)\",\"0x5\"]") == deal)
        }
        #expect(
            try decode("anvil_setERC20Allowance", "[\"\(HandlerHarness.account0)\",\"\(HandlerHarness.account1)\",\"\(Self.stranger)\",\"0x5\"]")
                == .node(.setERC20Allowance(owner: a, spender: b, token: c, amount: UInt256(5))))
    }

    @Test func badParametersAreInvalidParams() {
        for (method, params) in [
            ("anvil_dropAllTransactions", "[1]"), ("anvil_setChainId", "[]"), ("anvil_setChainId", "[\"chain\"]"),
            ("anvil_setChainId", "[\"0x10000000000000000\"]"), ("anvil_setTime", "[]"), ("evm_setTime", "[-1]"),
            ("evm_setTime", "[\"0xffffffffffffffff\"]"), ("anvil_getAutomine", "[true]"), ("anvil_getIntervalMining", "[1]"),
            ("anvil_addBalance", "[\"\(Self.stranger)\"]"), ("anvil_addBalance", "[\"0x12\",\"0x1\"]"),
            ("anvil_dealERC20", "[\"\(Self.stranger)\",\"\(Self.stranger)\"]"),
            ("anvil_setERC20Allowance", "[\"\(Self.stranger)\",\"\(Self.stranger)\",\"\(Self.stranger)\"]"),
        ] {
            #expect(decodeError(method, params) == -32602, "\(method) \(params)")
        }
    }

    @Test func dropAllTransactionsEmptiesThePool() async throws {
        let h = try await HandlerHarness.make()
        _ = try await h.result("evm_setAutomine", "[false]")
        _ = try await h.send(to: Self.stranger, value: "0x1")
        _ = try await h.send(to: Self.stranger, value: "0x2")
        #expect(try await h.result("txpool_status")["pending"]?.quantity == 2)
        #expect(try await h.result("anvil_dropAllTransactions") == .null)
        #expect(try await h.result("txpool_status")["pending"]?.quantity == 0)
        #expect(try await h.result("hardhat_dropAllTransactions") == .null)
        _ = try await h.result("evm_mine")
        #expect(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["transactions"]?.arrayValue?.isEmpty == true)
    }

    @Test func setChainIdChangesWhatTransactionsMustName() async throws {
        let h = try await HandlerHarness.make()
        #expect(try await h.result("anvil_setChainId", "[\"0x7a69\"]") == .null)
        #expect(try await h.result("eth_chainId") == .string("0x7a69"))
        #expect(try await h.result("net_version") == .string("31337"))
        let hash = try await h.send(to: Self.stranger, value: "0x1")
        #expect(try await h.result("eth_getTransactionByHash", "[\"\(hash)\"]")["chainId"] == .string("0x7a69"))
        // A transaction signed for the old id is refused now.
        let old = try ChainFixturesForNode.signedTransfer(chainId: 4)
        #expect(try await h.errorCode("eth_sendRawTransaction", "[\"\(old)\"]") == -32000)
        #expect(try await h.errorCode("anvil_setChainId", "[\"0x0\"]") == -32602)
        #expect(try await h.errorCode("anvil_setChainId", "[\"0x7fffffffffffffdc\"]") == -32602)
    }

    @Test func setTimeMovesTheClockForLaterBlocks() async throws {
        let h = try await HandlerHarness.make()  // deterministic: genesis 1,700,000,000, one second per block
        let head = try #require(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity)
        // The next block would have been head + 1; the answer is how far ahead the new time is.
        #expect(try await h.result("anvil_setTime", "[\(head + 1000)]") == .number("999"))
        _ = try await h.result("evm_mine")
        #expect(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity == head + 1000)
        _ = try await h.result("evm_mine")
        #expect(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity == head + 1001)
        // An earlier time: 0 ahead, and no block goes back (the next one is still after its parent).
        #expect(try await h.result("evm_setTime", "[\(head)]") == .number("0"))
        _ = try await h.result("evm_mine")
        #expect(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity == head + 1002)
        // Milliseconds.
        _ = try await h.result("evm_setTime", "[\((head + 5000) * 1000)]")
        _ = try await h.result("evm_mine")
        #expect(try await h.result("eth_getBlockByNumber", "[\"latest\",false]")["timestamp"]?.quantity == head + 5000)
        // 2^63 is read as milliseconds (above 10^12), so it is a valid time; 2^64 is no timestamp at all.
        #expect(try await h.errorCode("anvil_setTime", "[\"0x10000000000000000\"]") == -32602)
    }

    @Test func setTimeOnTheWallClockShiftsItsOffset() async throws {
        var config = ChainConfig.deterministic()
        config.clock = .custom { 2_000_000_000 }
        let chain = try await DevChain(config: config)
        #expect(try await chain.setTime(2_000_000_500) >= 499)
        #expect(try await chain.mine().first?.header.timestamp == 2_000_000_500)
        // Back in time: blocks wait at parent + 1 until the clock passes the head.
        _ = try await chain.setTime(1_000)
        #expect(try await chain.mine().first?.header.timestamp == 2_000_000_501)
        #expect(try await chain.increaseTime(10) < 0)
        await chain.close()
    }

    @Test func automineAndIntervalMiningAreReported() async throws {
        let h = try await HandlerHarness.make()
        #expect(try await h.result("anvil_getAutomine") == .bool(true))
        #expect(try await h.result("hardhat_getAutomine") == .bool(true))
        #expect(try await h.result("anvil_getIntervalMining") == .null)
        _ = try await h.result("evm_setIntervalMining", "[3600]")
        #expect(try await h.result("anvil_getAutomine") == .bool(false))
        #expect(try await h.result("anvil_getIntervalMining") == .number("3600"))
        _ = try await h.result("evm_setAutomine", "[true]")
        #expect(try await h.result("anvil_getIntervalMining") == .null)
        _ = try await h.result("evm_setAutomine", "[false]")
        #expect(try await h.result("hardhat_getAutomine") == .bool(false))
        await h.chain.close()
    }

    @Test func addBalanceAddsAndSaturates() async throws {
        let h = try await HandlerHarness.make()
        #expect(try await h.result("anvil_addBalance", "[\"\(Self.stranger)\",\"0x10\"]") == .null)
        #expect(try await h.result("hardhat_addBalance", "[\"\(Self.stranger)\",\"0x5\"]") == .null)
        #expect(try await h.result("eth_getBalance", "[\"\(Self.stranger)\",\"latest\"]") == .string("0x15"))
        let max = "0x" + String(repeating: "f", count: 64)
        _ = try await h.result("anvil_addBalance", "[\"\(Self.stranger)\",\"\(max)\"]")
        #expect(try await h.result("eth_getBalance", "[\"\(Self.stranger)\",\"latest\"]") == .string(max))
    }

    // MARK: ERC-20

    /// A token whose balances live at `keccak(pad(owner) . pad(0))` and allowances at
    /// `keccak(pad(spender) . keccak(pad(owner) . pad(1)))` (Solidity's mappings at slots 0 and 1).
    static let solidityToken: [UInt8] = TokenAssembler.token(layout: .solidity, balanceSlot: 0, allowanceSlot: 1, guardSlot: nil)
    /// A token whose balances live at `keccak(pad(7) . pad(owner))` and allowances at
    /// `keccak(pad(keccak(pad(8) . pad(owner))) . pad(spender))` (Vyper's HashMaps at slots 7 and 8), whose views first
    /// read slot 3 (a pause flag), so the search must tell the balance's slot from another the view reads.
    static let vyperToken: [UInt8] = TokenAssembler.token(layout: .vyper, balanceSlot: 7, allowanceSlot: 8, guardSlot: 3)

    static func word(_ address: String) throws -> [UInt8] { [UInt8](repeating: 0, count: 12) + (try Address(address)).bytes }
    static func word(_ value: UInt64) -> [UInt8] { UInt256(value).bigEndianBytes }

    func call(_ h: HandlerHarness, _ token: String, _ data: [UInt8]) async throws -> JSONValue {
        try await h.result("eth_call", "[{\"to\":\"\(token)\",\"data\":\"\(Hex.encode(data))\"},\"latest\"]")
    }

    @Test(arguments: [false, true])
    func dealERC20AndSetERC20AllowanceWriteTheSlotTheLayoutNames(vyper: Bool) async throws {
        let h = try await HandlerHarness.make()
        let token = "0x2222222222222222222222222222222222222222"
        _ = try await h.result("anvil_setCode", "[\"\(token)\",\"\(Hex.encode(vyper ? Self.vyperToken : Self.solidityToken))\"]")
        // The guard slot holds a value the deal must not touch.
        _ = try await h.result("anvil_setStorageAt", "[\"\(token)\",\"0x3\",\"0x\(String(repeating: "0", count: 63))1\"]")
        let owner = HandlerHarness.account0
        let spender = HandlerHarness.account1
        let ownerWord = try Self.word(owner)
        let spenderWord = try Self.word(spender)
        let balanceSlot = vyper ? Keccak256.hash(Self.word(7) + ownerWord) : Keccak256.hash(ownerWord + Self.word(0))
        let allowanceSlot = vyper
            ? Keccak256.hash(Keccak256.hash(Self.word(8) + ownerWord).bytes + spenderWord)
            : Keccak256.hash(spenderWord + Keccak256.hash(ownerWord + Self.word(1)).bytes)
        let balanceOf = Array(Keccak256.hash("balanceOf(address)").bytes.prefix(4)) + ownerWord
        let allowance = Array(Keccak256.hash("allowance(address,address)").bytes.prefix(4)) + ownerWord + spenderWord

        // Dealing 0 when the balance is 0 must still find the right slot (and leave the guard slot alone).
        for amount in ["0x0", "0x3635c9adc5dea00000", "0x0"] {
            #expect(try await h.result("anvil_dealERC20", "[\"\(owner)\",\"\(token)\",\"\(amount)\"]") == .null)
            let digits = amount.dropFirst(2)
            let expected = Hex.encode(UInt256(truncatingBigEndian: try Hex.decode((digits.count % 2 == 1 ? "0" : "") + String(digits))).bigEndianBytes)
            #expect(try await call(h, token, balanceOf) == .string(expected))
            #expect(try await h.result("eth_getStorageAt", "[\"\(token)\",\"\(balanceSlot.hexString)\",\"latest\"]") == .string(expected))
        }
        #expect(try await h.result("anvil_setERC20Allowance", "[\"\(owner)\",\"\(spender)\",\"\(token)\",\"0x2a\"]") == .null)
        #expect(try await call(h, token, allowance) == .string(Hex.encode(UInt256(42).bigEndianBytes)))
        #expect(
            try await h.result("eth_getStorageAt", "[\"\(token)\",\"\(allowanceSlot.hexString)\",\"latest\"]")
                == .string(Hex.encode(UInt256(42).bigEndianBytes)))
        #expect(try await h.result("eth_getStorageAt", "[\"\(token)\",\"0x3\",\"latest\"]") == .string(Hex.encode(UInt256(1).bigEndianBytes)))
    }

    @Test func erc20MethodsOnSomethingElseSayWhy() async throws {
        let h = try await HandlerHarness.make()
        // No code.
        let answer = try await h.answer("anvil_dealERC20", "[\"\(HandlerHarness.account0)\",\"\(Self.stranger)\",\"0x1\"]")
        #expect(answer["error"]?["code"] == .number("-32602"))
        #expect(answer["error"]?["message"]?.stringValue?.contains("no code") == true)
        // Code that answers, but keeps no balance in storage.
        _ = try await h.result("anvil_setCode", "[\"\(Self.stranger)\",\"0x60206000f3\"]")
        let none = try await h.answer("anvil_setERC20Allowance", "[\"\(HandlerHarness.account0)\",\"\(HandlerHarness.account1)\",\"\(Self.stranger)\",\"0x1\"]")
        #expect(none["error"]?["message"]?.stringValue?.contains("Unable to set ERC20 allowance, no slot found") == true)
    }
}

/// A raw transfer signed by dev account 0 for a chain id.
enum ChainFixturesForNode {
    static func signedTransfer(chainId: UInt64) throws -> String {
        let key = try DevAccounts.key(index: 0)
        let tx = Transaction.legacy(
            LegacyTransaction(
                nonce: 1, gasPrice: UInt256(10_000_000_000 as UInt64), gasLimit: 21_000, to: try Address(AnvilDailyMethodTests.stranger),
                value: .one, data: [], chainId: chainId))
        return Hex.encode(tx.sign(with: key).encoded)
    }
}

/// Assembles the two test tokens: `balanceOf(address)` and `allowance(address,address)` reading their mappings.
enum TokenAssembler {
    enum Layout { case solidity, vyper }

    /// The runtime code.
    static func token(layout: Layout, balanceSlot: UInt8, allowanceSlot: UInt8, guardSlot: UInt8?) -> [UInt8] {
        // Opcodes.
        let push1: UInt8 = 0x60, push2: UInt8 = 0x61, push4: UInt8 = 0x63
        let calldataload: UInt8 = 0x35, shr: UInt8 = 0x1c, dup1: UInt8 = 0x80, eq: UInt8 = 0x14, jumpi: UInt8 = 0x57
        let jumpdest: UInt8 = 0x5b, mstore: UInt8 = 0x52, keccak: UInt8 = 0x20, sload: UInt8 = 0x54, ret: UInt8 = 0xf3
        let revert: UInt8 = 0xfd, pop: UInt8 = 0x50
        /// mem[0..64] = (a, b), with a and b each either a calldata word or a constant; leaves keccak on the stack.
        func hashPair(_ first: [UInt8], _ second: [UInt8]) -> [UInt8] {
            first + [push1, 0x00, mstore] + second + [push1, 0x20, mstore, push1, 0x40, push1, 0x00, keccak]
        }
        let owner: [UInt8] = [push1, 0x04, calldataload]
        let spender: [UInt8] = [push1, 0x24, calldataload]
        func constant(_ v: UInt8) -> [UInt8] { [push1, v] }
        let guardRead: [UInt8] = guardSlot.map { [push1, $0, sload, pop] } ?? []
        let returnTop: [UInt8] = [push1, 0x00, mstore, push1, 0x20, push1, 0x00, ret]
        let balanceBody: [UInt8]
        let allowanceBody: [UInt8]
        switch layout {
        case .solidity:
            balanceBody = hashPair(owner, constant(balanceSlot)) + [sload]
            // inner = keccak(owner . slot); then keccak(spender . inner)
            allowanceBody = hashPair(owner, constant(allowanceSlot)) + [push1, 0x20, mstore] + spender + [push1, 0x00, mstore]
                + [push1, 0x40, push1, 0x00, keccak, sload]
        case .vyper:
            balanceBody = hashPair(constant(balanceSlot), owner) + [sload]
            // inner = keccak(slot . owner); then keccak(inner . spender)
            allowanceBody = hashPair(constant(allowanceSlot), owner) + [push1, 0x00, mstore] + spender + [push1, 0x20, mstore]
                + [push1, 0x40, push1, 0x00, keccak, sload]
        }
        let balance = [jumpdest] + guardRead + balanceBody + returnTop
        let allowance = [jumpdest] + guardRead + allowanceBody + returnTop
        // Dispatcher: selector = calldata[0..4]; jump to each body; otherwise revert.
        let dispatcherLength = 3 + 3 + (1 + 5 + 1 + 3 + 1) * 2 + 5
        let balanceAt = dispatcherLength
        let allowanceAt = balanceAt + balance.count
        func jump(_ selector: [UInt8], to offset: Int) -> [UInt8] {
            [dup1, push4] + selector + [eq, push2, UInt8(offset >> 8), UInt8(offset & 0xff), jumpi]
        }
        let dispatcher: [UInt8] = [push1, 0x00, calldataload, push1, 0xe0, shr]
            + jump([0x70, 0xa0, 0x82, 0x31], to: balanceAt) + jump([0xdd, 0x62, 0xed, 0x3e], to: allowanceAt)
            + [push1, 0x00, dup1, revert, 0x00]
        precondition(dispatcher.count == dispatcherLength)
        return dispatcher + balance + allowance
    }
}
