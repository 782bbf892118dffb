import EVM
import EthereumPrimitives

/// geth's `prestateTracer`: which accounts and slots a transaction touched, read afterwards from the state before
/// it (and, in diff mode, after it).
///
/// Touched, as geth counts it: the sender, the recipient (or the new contract), the coinbase and EIP-7702
/// authorities from the start; then the accounts reached by BALANCE, EXTCODESIZE/COPY/HASH, SELFDESTRUCT (its
/// beneficiary), the CALL family and CREATE/CREATE2 (the new address), the slots read or written by SLOAD/SSTORE,
/// and from Prague the delegate of a called account. An instruction counts once it ran (or failed only on a write
/// in a static context, as geth looks before that check). Every account is read as it was before the transaction,
/// which is what geth reads at the first touch: nothing can change an account before it is first touched.
struct PrestateTracer: Tracer {
    static var isEnabled: Bool { true }

    let fork: Hardfork
    private(set) var accounts: Set<Address>
    private(set) var slots: [Address: Set<UInt256>] = [:]
    /// Accounts called, whose delegate (EIP-7702) is touched too.
    private var called: Set<Address> = []
    /// Contracts the transaction created.
    private var created: Set<Address> = []
    /// Contracts that self-destructed (before Cancun any; from Cancun, EIP-6780, those created in the transaction).
    private var deleted: Set<Address> = []

    private enum Touch {
        case slot(Address, UInt256)
        case account(Address)
        case call(Address)
        case selfDestruct(contract: Address, beneficiary: Address)
    }
    /// What the running instruction touches, counted when it has run.
    private var pending: Touch?

    /// `initial`: what the transaction touches before it runs (sender, coinbase, EIP-7702 authorities).
    init(fork: Hardfork, initial: [Address]) {
        self.fork = fork
        self.accounts = Set(initial)
    }

    mutating func enterFrame(_ message: Message, to: Address) {
        accounts.insert(to)
        if message.kind.isCreate {
            created.insert(to)
        } else if message.depth == 0 {
            called.insert(to)
        }
    }

    // The step hooks run for every instruction: inlined tests, the work out of line.

    @inline(__always)
    mutating func willExecute(
        pc: Int, opcode: UInt8, gas: Int64, depth: Int, refund: Int64, stack: UnsafeBufferPointer<UInt256>,
        memory: UnsafeRawBufferPointer, returnData: [UInt8], address: Address
    ) {
        switch opcode {
        case 0x54, 0x55, 0x31, 0x3b, 0x3c, 0x3f, 0xff, 0xf1, 0xf2, 0xf4, 0xfa: note(opcode, stack: stack, address: address)
        default: break
        }
    }

    @inline(never)
    private mutating func note(_ opcode: UInt8, stack: UnsafeBufferPointer<UInt256>, address: Address) {
        guard let top = stack.last else { return }
        switch opcode {
        case 0x54, 0x55: pending = .slot(address, top)  // SLOAD, SSTORE
        case 0x31, 0x3b, 0x3c, 0x3f: pending = .account(Address(bytes32: top.bytes32))  // BALANCE, EXTCODE*
        case 0xff: pending = .selfDestruct(contract: address, beneficiary: Address(bytes32: top.bytes32))
        default:  // CALL, CALLCODE, DELEGATECALL, STATICCALL: the address is second
            if stack.count >= 5 { pending = .call(Address(bytes32: stack[stack.count - 2].bytes32)) }
        }
    }

    @inline(__always)
    mutating func didExecute(gasCost: Int64, error: Status?) {
        if pending != nil { touch(error: error) }
    }

    /// Counts what the instruction touched, once it has run (or failed only on a static context's write).
    @inline(never)
    private mutating func touch(error: Status?) {
        guard let touch = pending else { return }
        pending = nil
        guard error == nil || error == .staticStateChange else { return }
        switch touch {
        case .slot(let address, let key):
            accounts.insert(address)
            slots[address, default: []].insert(key)
        case .account(let address): accounts.insert(address)
        case .call(let address):
            accounts.insert(address)
            called.insert(address)
        case .selfDestruct(let contract, let beneficiary):
            accounts.insert(beneficiary)
            if fork < .cancun || created.contains(contract) { deleted.insert(contract) }
        }
    }

    mutating func didFinish(result: ExecutionResult, gasUsed: Int64) {}

    // MARK: The answer

    /// The trace, from the state before the transaction and (diff mode) after it, as geth's tracer builds it: every
    /// touched account before; or, in diff mode, the accounts that changed, each with its old values in `pre` and
    /// the changed fields in `post` (a deleted account stays in `pre` only). Accounts that were empty before are
    /// left out of `pre` unless `includeEmpty`.
    func result(pre: JournaledState, post: JournaledState, options: PrestateTracerOptions) -> PrestateTrace {
        var touched = accounts
        if fork >= .prague {
            for address in called {
                for state in [pre, post] {
                    if let delegate = Delegation.target(of: state.code(at: address)) { touched.insert(delegate) }
                }
            }
        }
        var before: [Address: PrestateAccount] = [:]
        var empty: Set<Address> = []
        for address in touched {
            let code = pre.code(at: address)
            let balance = pre.balance(of: address)
            let nonce = pre.nonce(of: address)
            var account = PrestateAccount(balance: balance, nonce: nonce)
            if !code.isEmpty {
                account.codeHash = pre.codeHash(at: address)
                if !options.disableCode { account.code = code }
            }
            if !options.disableStorage {
                for key in slots[address] ?? [] { account.storage[key] = pre.storage(address, key) }
            }
            if nonce == 0 && code.isEmpty && balance.isZero { empty.insert(address) }
            before[address] = account
        }
        guard options.diffMode else {
            if !options.includeEmpty { for address in empty { before[address] = nil } }
            return .accounts(before)
        }
        var after: [Address: PrestateAccount] = [:]
        for address in touched where !deleted.contains(address) {
            guard var old = before[address] else { continue }
            var new = PrestateAccount()
            var modified = false
            let balance = post.balance(of: address)
            if balance != old.balance {
                new.balance = balance
                modified = true
            }
            let nonce = post.nonce(of: address)
            if nonce != old.nonce {
                new.nonce = nonce
                modified = true
            }
            // An account that does not exist has no code: its hash counts as the empty code's.
            let codeHash = post.codeHash(at: address)
            if codeHash != (old.codeHash ?? .emptyCodeHash) {
                new.codeHash = codeHash
                modified = true
            }
            if !options.disableCode {
                let code = post.code(at: address)
                if code != (old.code ?? []) {
                    new.code = code
                    modified = true
                }
            }
            if !options.disableStorage {
                for (key, value) in old.storage {
                    let current = post.storage(address, key)
                    if value.isZero || value == current { old.storage[key] = nil }
                    if value != current {
                        modified = true
                        if !current.isZero { new.storage[key] = current }
                    }
                }
            }
            if modified {
                after[address] = new
                before[address] = old
            } else {
                before[address] = nil
            }
        }
        for address in empty { before[address] = nil }
        return .diff(pre: before, post: after)
    }
}

extension PrestateTrace {
    /// About how many bytes of JSON the trace takes, for the trace size limit.
    var estimatedJSONSize: Int {
        func size(_ accounts: [Address: PrestateAccount]) -> Int {
            accounts.values.reduce(0) { total, account in
                total + 200 + 2 * (account.code?.count ?? 0) + 134 * account.storage.count
            }
        }
        switch self {
        case .accounts(let accounts): return size(accounts)
        case .diff(let pre, let post): return size(pre) + size(post)
        }
    }
}
