import Chain
import DevNode
import EthereumPrimitives
import EthereumWire
import Foundation
import Testing

/// `prestateTracer` (and its `diffMode`, `disableCode`, `disableStorage`, `includeEmpty`) on ``TracerFixture``'s
/// transaction, against what the transaction touches by geth's rules and the state the chain reports before and
/// after it; and diff mode applied to the state before a block giving the block's state root.
@Suite struct PrestateTracerTests {
    static func word(_ n: Int) -> String { "0x" + String(repeating: "0", count: 62) + String(format: "%02x", n) }
    static func hashOf(_ hex: String) -> String { Hex.encode(Keccak256.hash((try? Hex.decode(hex)) ?? []).bytes) }

    /// The block of the traced transaction, and the one before it.
    static func blocks(_ h: HandlerHarness, _ hash: String) async throws -> (block: String, parent: String, coinbase: String) {
        let receipt = try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")
        let block = try #require(receipt["blockNumber"]?.stringValue)
        let number = try #require(receipt["blockNumber"]?.quantity)
        let header = try await h.result("eth_getBlockByNumber", "[\"\(block)\",false]")
        return (block, "0x" + String(number - 1, radix: 16), try #require(header["miner"]?.stringValue))
    }

    static func balance(_ h: HandlerHarness, _ address: String, _ block: String) async throws -> JSONValue {
        try await h.result("eth_getBalance", "[\"\(address)\",\"\(block)\"]")
    }

    /// An account entry as geth writes it: balance, code, codeHash, nonce (a number, left out when 0), storage.
    static func account(
        balance: JSONValue? = nil, code: String? = nil, codeHash: String? = nil, nonce: Int = 0, storage: [(String, String)] = []
    ) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let balance { members.append(("balance", balance)) }
        if let code { members.append(("code", .string(code))) }
        if let codeHash { members.append(("codeHash", .string(codeHash))) }
        if nonce != 0 { members.append(("nonce", .number(String(nonce)))) }
        if !storage.isEmpty { members.append(("storage", .object(storage.map { (key: $0.0, value: .string($0.1)) }))) }
        return .object(members)
    }

    /// Whether an account exists with something in it at `block` (geth leaves empty ones out).
    static func isNonEmpty(_ h: HandlerHarness, _ address: String, _ block: String) async throws -> Bool {
        let balance = try await balance(h, address, block)
        let nonce = try await h.result("eth_getTransactionCount", "[\"\(address)\",\"\(block)\"]")
        let code = try await h.result("eth_getCode", "[\"\(address)\",\"\(block)\"]")
        return balance != .string("0x0") || nonce != .string("0x0") || code != .string("0x")
    }

    @Test func everyTouchedAccountAsItWasBefore() async throws {
        let (h, hash) = try await TracerFixture.traced()
        let F = TracerFixture.self
        let (_, parent, coinbase) = try await Self.blocks(h, hash)
        let trace = try await h.result("debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"prestateTracer\"}]")
        var expected: [(key: String, value: JSONValue)] = [
            (HandlerHarness.account0, Self.account(balance: try await Self.balance(h, HandlerHarness.account0, parent))),
            (F.main, Self.account(balance: .string("0x0"), code: F.mainCode, codeHash: Self.hashOf(F.mainCode), storage: [(Self.word(1), Self.word(7)), (Self.word(2), Self.word(5))])),
            (F.logger, Self.account(balance: .string("0x0"), code: F.loggerCode, codeHash: Self.hashOf(F.loggerCode))),
            (F.reverter, Self.account(balance: .string("0x0"), code: F.reverterCode, codeHash: Self.hashOf(F.reverterCode))),
            (F.destructor, Self.account(balance: .string("0x64"), code: F.destructorCode, codeHash: Self.hashOf(F.destructorCode))),
            (F.creator, Self.account(balance: .string("0x0"), code: F.creatorCode, codeHash: Self.hashOf(F.creatorCode))),
            (F.creator2, Self.account(balance: .string("0x0"), code: F.creator2Code, codeHash: Self.hashOf(F.creator2Code))),
        ]
        // Touched too, but left out when empty before (geth's rule): the coinbase, the precompile, the new contracts,
        // the self-destruct's beneficiary.
        for address in [coinbase, F.identity, F.created, F.created2, F.beneficiary] where try await Self.isNonEmpty(h, address, parent) {
            expected.append((address, Self.account(balance: try await Self.balance(h, address, parent))))
        }
        expected.sort { $0.key < $1.key }
        #expect(trace == .object(expected))
        let createdExisted = try await Self.isNonEmpty(h, F.created, parent)
        let beneficiaryExisted = try await Self.isNonEmpty(h, F.beneficiary, parent)
        #expect(!createdExisted && !beneficiaryExisted)

        // disableCode keeps the code hash; disableStorage drops the slots.
        let lean = try await h.result(
            "debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"prestateTracer\",\"tracerConfig\":{\"disableCode\":true,\"disableStorage\":true}}]")
        #expect(lean[F.main] == Self.account(balance: .string("0x0"), codeHash: Self.hashOf(F.mainCode)))
        // includeEmpty keeps the accounts that were empty.
        let all = try await h.result(
            "debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"prestateTracer\",\"tracerConfig\":{\"includeEmpty\":true}}]")
        #expect(all[F.created] == Self.account(balance: .string("0x0")))
        #expect(all[F.created2] == Self.account(balance: .string("0x0")))
        #expect(all[F.beneficiary] == Self.account(balance: .string("0x0")))
        #expect(all[coinbase] != nil && all[F.identity] != nil)
    }

    @Test func diffModeGivesWhatChanged() async throws {
        let (h, hash) = try await TracerFixture.traced()
        let F = TracerFixture.self
        let (block, parent, coinbase) = try await Self.blocks(h, hash)
        let trace = try await h.result(
            "debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"prestateTracer\",\"tracerConfig\":{\"diffMode\":true}}]")
        let sender = HandlerHarness.account0
        var pre: [(key: String, value: JSONValue)] = [
            (sender, Self.account(balance: try await Self.balance(h, sender, parent))),
            // Both slots changed; slot 2 became zero, so it is in `pre` only.
            (F.main, Self.account(balance: .string("0x0"), code: F.mainCode, codeHash: Self.hashOf(F.mainCode), storage: [(Self.word(1), Self.word(7)), (Self.word(2), Self.word(5))])),
            (F.destructor, Self.account(balance: .string("0x64"), code: F.destructorCode, codeHash: Self.hashOf(F.destructorCode))),
            (F.creator, Self.account(balance: .string("0x0"), code: F.creatorCode, codeHash: Self.hashOf(F.creatorCode))),
            (F.creator2, Self.account(balance: .string("0x0"), code: F.creator2Code, codeHash: Self.hashOf(F.creator2Code))),
        ]
        var post: [(key: String, value: JSONValue)] = [
            (sender, Self.account(balance: try await Self.balance(h, sender, block), nonce: 1)),
            (F.main, Self.account(storage: [(Self.word(1), Self.word(8))])),
            (F.destructor, Self.account(balance: .string("0x0"))),
            (F.creator, Self.account(nonce: 1)),
            (F.created, Self.account(code: "0x00", codeHash: Self.hashOf("0x00"), nonce: 1)),
            (F.creator2, Self.account(nonce: 1)),
            (F.created2, Self.account(code: "0x00", codeHash: Self.hashOf("0x00"), nonce: 1)),
            (F.beneficiary, Self.account(balance: .string("0x64"))),
        ]
        // The coinbase, when the priority fee paid it something.
        let coinbaseBefore = try await Self.balance(h, coinbase, parent)
        let coinbaseAfter = try await Self.balance(h, coinbase, block)
        if coinbaseBefore != coinbaseAfter {
            post.append((coinbase, Self.account(balance: coinbaseAfter)))
            if coinbaseBefore != .string("0x0") { pre.append((coinbase, Self.account(balance: coinbaseBefore))) }
        }
        pre.sort { $0.key < $1.key }
        post.sort { $0.key < $1.key }
        #expect(trace == .object([("post", .object(post)), ("pre", .object(pre))]))
    }

    /// Shanghai (no start-of-block system calls, no block reward): the state before a block plus each transaction's
    /// diff, in order, is the state the block's header commits to. Two transactions in one block, the second
    /// deleting a contract (SELFDESTRUCT before EIP-6780).
    @Test func diffsAppliedToTheStateBeforeGiveTheBlocksStateRoot() async throws {
        let h = try await HandlerHarness.make(hardfork: .shanghai)
        try await TracerFixture.install(h)
        let dump = try #require(try await h.result("anvil_dumpState").stringValue)
        var state = try StateDump(encoded: try Hex.decode(dump)).state
        _ = try await h.result("evm_setAutomine", "[false]")
        _ = try await h.send(to: TracerFixture.reverter, gas: "0x30d40")
        _ = try await h.send(to: TracerFixture.main, data: TracerFixture.calldata, gas: "0xf4240")
        _ = try await h.result("evm_mine", "[]")
        let header = try await h.result("eth_getBlockByNumber", "[\"latest\",false]")
        #expect(header["transactions"]?.arrayValue?.count == 2)
        let traces = try await h.result(
            "debug_traceBlockByNumber", "[\"latest\",{\"tracer\":\"prestateTracer\",\"tracerConfig\":{\"diffMode\":true}}]")
        for entry in traces.arrayValue ?? [] { try Self.apply(try #require(entry["result"]), to: &state) }
        #expect(Hex.encode(state.stateRoot.bytes) == header["stateRoot"]?.stringValue)
        // The destructor was deleted: in `pre`, not in `post`.
        let second = traces.arrayValue?.last?["result"]
        #expect(second?["pre"]?[TracerFixture.destructor] != nil && second?["post"]?[TracerFixture.destructor] == nil)
    }

    /// Applies one diff-mode answer: an account only in `pre` was deleted; one in `post` takes the fields given there
    /// over its old ones; a slot in `pre` or `post` becomes its `post` value, or zero.
    static func apply(_ diff: JSONValue, to state: inout WorldState) throws {
        guard case .object(let pre)? = diff["pre"], case .object(let post)? = diff["post"] else {
            Issue.record("not a diff: \(diff)")
            return
        }
        let posted = Set(post.map(\.key))
        for (key, _) in pre where !posted.contains(key) { state.accounts[try address(key)] = nil }
        for (key, change) in post {
            let address = try address(key)
            var account = state.accounts[address] ?? Account()
            if let balance = change["balance"]?.stringValue { account.balance = try Quantity.decodeUInt256(balance) }
            if case .number(let nonce)? = change["nonce"] { account.nonce = UInt64(nonce) ?? 0 }
            if let code = change["code"]?.stringValue { account.setCode(try Hex.decode(code)) }
            var slots: [String] = []
            if case .object(let old)? = diff["pre"]?[key]?["storage"] { slots += old.map(\.key) }
            if case .object(let new)? = change["storage"] { slots += new.map(\.key) }
            for slot in slots {
                let k = UInt256(bigEndianBytes: try Hex.decode(slot)) ?? .zero
                var value = UInt256.zero
                if let text = change["storage"]?[slot]?.stringValue { value = UInt256(bigEndianBytes: try Hex.decode(text)) ?? .zero }
                account.storage[k] = value.isZero ? nil : value
            }
            state.accounts[address] = account
        }
    }

    static func address(_ text: String) throws -> Address {
        try #require(Address(bytes: try Hex.decode(text)))
    }
}
