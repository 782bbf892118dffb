import EVM
import EthereumPrimitives

/// A small in-memory ``Host`` for interpreter unit tests: accounts, storage, logs, warm sets and a
/// snapshot journal (the whole state is copied at each checkpoint, which is fine for tests).
struct TestHost: Host {
    struct Account: Equatable {
        var nonce: UInt64 = 0
        var balance: UInt256 = .zero
        var code: [UInt8] = []
        var storage: [UInt256: UInt256] = [:]
        var isEmpty: Bool { nonce == 0 && balance.isZero && code.isEmpty }
    }

    struct Snapshot {
        var accounts: [Address: Account]
        var original: [Address: [UInt256: UInt256]]
        var transient: [Address: [UInt256: UInt256]]
        var warmAccounts: Set<Address>
        var warmSlots: Set<[UInt64]>
        var logs: [Log]
        var created: Set<Address>
        var destructed: Set<Address>
    }

    var accounts: [Address: Account] = [:]
    var original: [Address: [UInt256: UInt256]] = [:]
    var transient: [Address: [UInt256: UInt256]] = [:]
    var warmAccounts: Set<Address> = []
    var warmSlots: Set<[UInt64]> = []
    var logs: [Log] = []
    var created: Set<Address> = []
    var destructed: Set<Address> = []
    var snapshots: [Snapshot] = []

    func accountExists(_ address: Address) -> Bool { accounts[address] != nil }
    func isDeadAccount(_ address: Address) -> Bool { accounts[address]?.isEmpty ?? true }
    func balance(of address: Address) -> UInt256 { accounts[address]?.balance ?? .zero }
    func nonce(of address: Address) -> UInt64 { accounts[address]?.nonce ?? 0 }
    func code(at address: Address) -> [UInt8] { accounts[address]?.code ?? [] }
    func codeHash(at address: Address) -> Bytes32 { Keccak256.hash(code(at: address)) }
    func codeSize(at address: Address) -> Int { code(at: address).count }
    func hasStorage(_ address: Address) -> Bool { !(accounts[address]?.storage.isEmpty ?? true) }

    mutating func addBalance(_ address: Address, _ amount: UInt256) {
        accounts[address, default: Account()].balance = balance(of: address) &+ amount
    }
    mutating func subtractBalance(_ address: Address, _ amount: UInt256) {
        accounts[address, default: Account()].balance = balance(of: address) &- amount
    }
    mutating func setNonce(_ address: Address, _ nonce: UInt64) { accounts[address, default: Account()].nonce = nonce }
    mutating func setCode(_ address: Address, _ code: [UInt8]) { accounts[address, default: Account()].code = code }
    mutating func createContractAccount(_ address: Address) {
        accounts[address] = Account(balance: balance(of: address))
        created.insert(address)
    }
    mutating func touch(_ address: Address) { if accounts[address] == nil { accounts[address] = Account() } }
    mutating func markSelfDestructed(_ address: Address) -> Bool {
        accounts[address]?.balance = .zero
        return destructed.insert(address).inserted
    }
    func isCreatedInTransaction(_ address: Address) -> Bool { created.contains(address) }

    func storage(_ address: Address, _ key: UInt256) -> UInt256 { accounts[address]?.storage[key] ?? .zero }
    func originalStorage(_ address: Address, _ key: UInt256) -> UInt256 {
        original[address]?[key] ?? storage(address, key)
    }
    mutating func setStorage(_ address: Address, _ key: UInt256, _ value: UInt256) {
        if original[address]?[key] == nil { original[address, default: [:]][key] = storage(address, key) }
        accounts[address, default: Account()].storage[key] = value.isZero ? nil : value
    }
    func transientStorage(_ address: Address, _ key: UInt256) -> UInt256 { transient[address]?[key] ?? .zero }
    mutating func setTransientStorage(_ address: Address, _ key: UInt256, _ value: UInt256) {
        transient[address, default: [:]][key] = value
    }
    mutating func warmAccount(_ address: Address) -> Bool { warmAccounts.insert(address).inserted }
    mutating func warmSlot(_ address: Address, _ key: UInt256) -> Bool {
        warmSlots.insert(address.bytes32.wordsArray + [key.limbs.0, key.limbs.1, key.limbs.2, key.limbs.3]).inserted
    }
    mutating func emitLog(_ log: Log) { logs.append(log) }
    mutating func checkpoint() -> Int {
        snapshots.append(
            Snapshot(
                accounts: accounts, original: original, transient: transient, warmAccounts: warmAccounts,
                warmSlots: warmSlots, logs: logs, created: created, destructed: destructed))
        return snapshots.count - 1
    }
    mutating func revert(to checkpoint: Int) {
        let s = snapshots[checkpoint]
        snapshots.removeSubrange(checkpoint...)
        accounts = s.accounts
        original = s.original
        transient = s.transient
        warmAccounts = s.warmAccounts
        warmSlots = s.warmSlots
        logs = s.logs
        created = s.created
        destructed = s.destructed
    }
    func blockHash(_ number: UInt64) -> Bytes32 { Keccak256.hash(String(number)) }
}

extension Bytes32 {
    fileprivate var wordsArray: [UInt64] { [words.0, words.1, words.2, words.3] }
}

/// Helpers to run bytecode in tests.
enum EVMTest {
    static let contract = Address(bytes: [UInt8](repeating: 0, count: 19) + [0xc0]) ?? .zero
    static let caller = Address(bytes: [UInt8](repeating: 0, count: 19) + [0xca]) ?? .zero

    /// Parses hex that tests write as literals.
    static func hex(_ text: String) -> [UInt8] { (try? Hex.decode(text)) ?? [] }

    /// Runs `code` as the contract's code, called by `caller`, and returns the result and the host.
    static func run(
        _ code: [UInt8], fork: Hardfork = .cancun, gas: Int64 = 1_000_000, input: [UInt8] = [],
        value: UInt256 = .zero, storage: [UInt256: UInt256] = [:], warm: Bool = true,
        setup: (inout TestHost) -> Void = { _ in }
    ) -> (result: ExecutionResult, host: TestHost) {
        var host = TestHost()
        host.accounts[contract] = TestHost.Account(nonce: 1, code: code, storage: storage)
        host.accounts[caller] = TestHost.Account(balance: UInt256(1_000_000_000))
        if warm {
            _ = host.warmAccount(contract)
            _ = host.warmAccount(caller)
        }
        setup(&host)
        var interpreter = Interpreter(
            host: host, rules: ForkRules(fork), block: BlockEnvironment(number: 10, timestamp: 1_000, chainID: UInt256(1)),
            transaction: TransactionEnvironment(origin: caller, gasPrice: UInt256(7)))
        let result = interpreter.execute(.call(from: caller, to: contract, value: value, input: input, gas: gas))
        return (result, interpreter.host)
    }

    /// The 32-byte word `code` returns (it must RETURN exactly one word).
    static func word(_ code: String, fork: Hardfork = .cancun) -> UInt256? {
        let (result, _) = run(hex(code), fork: fork)
        guard result.isSuccess, result.output.count == 32 else { return nil }
        return UInt256(bigEndianBytes: result.output)
    }

    /// Code that pushes `values` (as PUSH32), runs `op`, stores the top at 0 and returns it.
    static func program(_ op: UInt8, _ values: [UInt256]) -> [UInt8] {
        var code: [UInt8] = []
        for v in values.reversed() {
            code.append(0x7f)
            code.append(contentsOf: v.bigEndianBytes)
        }
        code.append(op)
        code += [0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]  // MSTORE(0), RETURN(0, 32)
        return code
    }

    /// Runs `op` on `values` (first value on top) and returns the result.
    static func apply(_ op: UInt8, _ values: [UInt256], fork: Hardfork = .cancun) -> UInt256? {
        let (result, _) = run(program(op, values), fork: fork)
        guard result.isSuccess, result.output.count == 32 else { return nil }
        return UInt256(bigEndianBytes: result.output)
    }
}
