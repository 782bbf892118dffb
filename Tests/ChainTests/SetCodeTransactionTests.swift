import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Testing

/// EIP-7702 set-code transactions in the executor: authorization processing, delegated execution, the
/// per-authorization gas and refund, and the transaction-level rules (EIP-7825's cap for Osaka too).
/// Gas figures are the EIP's constants: 21,000 + 25,000 per authorization, SSTORE of a new value in a cold
/// slot 22,100, refund 12,500 for an authority already in the state.
@Suite struct SetCodeTransactionTests {
    let sender = Address(bytes: [UInt8](repeating: 0, count: 19) + [0x11]) ?? .zero
    let contract = Address(bytes: [UInt8](repeating: 0, count: 19) + [0xc0]) ?? .zero
    let authorityKey: PrivateKey
    /// PUSH1 0x2a PUSH1 0 SSTORE STOP: writes 42 to slot 0 of whichever account runs it.
    let storeCode: [UInt8] = [0x60, 0x2a, 0x60, 0x00, 0x55, 0x00]

    init() throws { authorityKey = try PrivateKey(bytes: [UInt8](repeating: 0, count: 31) + [0x07]) }

    var authority: Address { authorityKey.address }

    func block() -> BlockEnvironment {
        BlockEnvironment(number: 1, timestamp: 1, gasLimit: 30_000_000, baseFee: UInt256(7), chainID: UInt256(1))
    }

    func state(authority account: Account? = nil) -> WorldState {
        var accounts = [sender: Account(balance: UInt256(10_000_000_000)), contract: Account(code: storeCode)]
        if let account { accounts[authority] = account }
        return WorldState(accounts: accounts)
    }

    func setCode(_ authorizations: [SignedAuthorization], gasLimit: UInt64 = 200_000) -> ExecutableTransaction {
        ExecutableTransaction(
            .setCode(
                SetCodeTransaction(
                    chainId: 1, nonce: 0, maxPriorityFeePerGas: .zero, maxFeePerGas: UInt256(7), gasLimit: gasLimit,
                    to: authority, authorizationList: authorizations)),
            sender: sender)
    }

    func authorize(_ target: Address, chainId: UInt64 = 0, nonce: UInt64 = 0) -> SignedAuthorization {
        Authorization(chainId: UInt256(chainId), address: target, nonce: nonce).sign(with: authorityKey)
    }

    @Test func authorizationDelegatesAndTheCallRunsTheDelegateCode() throws {
        var world = state()
        let outcome = try TransactionExecutor.execute(setCode([authorize(contract)]), state: &world, block: block(), fork: .prague)
        #expect(outcome.isSuccess)
        #expect(world[authority]?.code == [0xef, 0x01, 0x00] + contract.bytes)
        #expect(world[authority]?.nonce == 1)
        #expect(world[authority]?.storage[.zero] == UInt256(42))  // the delegate's code ran on the authority
        #expect(world[contract]?.storage.isEmpty == true)
        #expect(outcome.gasUsed == 21_000 + 25_000 + 3 + 3 + 22_100)  // a new authority earns no refund
    }

    @Test func existingAuthorityEarnsTheRefund() throws {
        var world = state(authority: Account(balance: UInt256(1)))
        let outcome = try TransactionExecutor.execute(setCode([authorize(contract)]), state: &world, block: block(), fork: .prague)
        #expect(outcome.gasRefunded == 12_500)
        #expect(outcome.gasUsed == 21_000 + 25_000 + 3 + 3 + 22_100 - 12_500)
    }

    @Test func invalidAuthorizationsAreSkippedAndTheTransactionStands() throws {
        var world = state()
        let wrongChain = authorize(contract, chainId: 5)
        let wrongNonce = authorize(contract, nonce: 3)
        let outcome = try TransactionExecutor.execute(
            setCode([wrongChain, wrongNonce]), state: &world, block: block(), fork: .prague)
        #expect(outcome.isSuccess)
        #expect(world[authority] == nil)  // nothing delegated, and a value-less call creates nothing
    }

    @Test func delegationToTheZeroAddressClearsIt() throws {
        let designator = [0xef, 0x01, 0x00] + contract.bytes
        var world = state(authority: Account(nonce: 1, code: designator))
        _ = try TransactionExecutor.execute(
            setCode([authorize(.zero, nonce: 1)]), state: &world, block: block(), fork: .prague)
        #expect(world[authority]?.code.isEmpty == true)
        #expect(world[authority]?.codeHash == .emptyCodeHash)
        #expect(world[authority]?.nonce == 2)
    }

    @Test func transactionRules() {
        var world = state()
        #expect(throws: TransactionValidationError.emptyAuthorizationList) {
            try TransactionExecutor.execute(setCode([]), state: &world, block: block(), fork: .prague)
        }
        #expect(throws: TransactionValidationError.typeNotSupported(type: 4)) {
            try TransactionExecutor.execute(setCode([authorize(contract)]), state: &world, block: block(), fork: .cancun)
        }
        #expect(throws: TransactionValidationError.gasLimitAboveCap(cap: 1 << 24, limit: (1 << 24) + 1)) {
            try TransactionExecutor.execute(
                setCode([authorize(contract)], gasLimit: (1 << 24) + 1), state: &world, block: block(), fork: .osaka)
        }
        #expect(world == state())
    }

    @Test func aDelegatedSenderIsStillAnEOA() throws {
        let designated = Account(balance: UInt256(10_000_000_000), code: [0xef, 0x01, 0x00] + contract.bytes)
        var world = WorldState(accounts: [sender: designated, contract: Account(code: storeCode)])
        let transfer = ExecutableTransaction(
            .dynamicFee(
                DynamicFeeTransaction(
                    chainId: 1, nonce: 0, maxPriorityFeePerGas: .zero, maxFeePerGas: UInt256(7), gasLimit: 21_000,
                    to: contract, value: .zero)),
            sender: sender)
        var before = world
        #expect(throws: TransactionValidationError.senderNotEOA) {
            try TransactionExecutor.execute(transfer, state: &before, block: block(), fork: .cancun)
        }
        _ = try TransactionExecutor.execute(transfer, state: &world, block: block(), fork: .prague)
        #expect(world[sender]?.nonce == 1)
    }
}
