import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Testing

/// Transaction execution: validation against the state, gas purchase and refund, fees, creation.
@Suite struct TransactionExecutorTests {
    let sender = Address(bytes: [UInt8](repeating: 0, count: 19) + [0x11]) ?? .zero
    let recipient = Address(bytes: [UInt8](repeating: 0, count: 19) + [0x22]) ?? .zero
    let coinbase = Address(bytes: [UInt8](repeating: 0, count: 19) + [0xcb]) ?? .zero

    func block(baseFee: UInt64 = 7) -> BlockEnvironment {
        BlockEnvironment(coinbase: coinbase, number: 1, timestamp: 1, gasLimit: 30_000_000, baseFee: UInt256(baseFee))
    }

    func transfer(nonce: UInt64 = 0, value: UInt64 = 1_000, gasLimit: UInt64 = 21_000) -> ExecutableTransaction {
        ExecutableTransaction(
            .dynamicFee(
                DynamicFeeTransaction(
                    chainId: 1, nonce: nonce, maxPriorityFeePerGas: UInt256(2), maxFeePerGas: UInt256(20),
                    gasLimit: gasLimit, to: recipient, value: UInt256(value))),
            sender: sender)
    }

    @Test func valueTransferPaysBaseFeeAndTip() throws {
        var state = WorldState(accounts: [sender: Account(balance: UInt256(1_000_000))])
        let outcome = try TransactionExecutor.execute(transfer(), state: &state, block: block(), fork: .cancun)
        #expect(outcome.isSuccess && outcome.gasUsed == 21_000)
        #expect(outcome.effectiveGasPrice == UInt256(9))  // min(20, 7 + 2)
        #expect(state[recipient]?.balance == UInt256(1_000))
        #expect(state[sender]?.balance == UInt256(1_000_000 - 1_000 - 21_000 * 9))
        #expect(state[sender]?.nonce == 1)
        #expect(state[coinbase]?.balance == UInt256(21_000 * 2))  // the tip; the base fee is burned
    }

    @Test func validationErrorsLeaveTheStateUnchanged() {
        let start = WorldState(accounts: [sender: Account(nonce: 1, balance: UInt256(100_000))])
        var state = start
        #expect(throws: TransactionValidationError.nonceTooLow(expected: 1, got: 0)) {
            try TransactionExecutor.execute(transfer(nonce: 0), state: &state, block: block(), fork: .cancun)
        }
        #expect(throws: TransactionValidationError.insufficientFunds) {
            try TransactionExecutor.execute(transfer(nonce: 1), state: &state, block: block(), fork: .cancun)
        }
        #expect(throws: TransactionValidationError.feeCapBelowBaseFee) {
            try TransactionExecutor.execute(transfer(nonce: 1), state: &state, block: block(baseFee: 21), fork: .cancun)
        }
        #expect(throws: TransactionValidationError.typeNotSupported(type: 2)) {
            try TransactionExecutor.execute(transfer(nonce: 1), state: &state, block: block(), fork: .berlin)
        }
        #expect(state == start)
    }

    @Test func senderWithCodeIsRejected() {
        var state = WorldState(accounts: [sender: Account(balance: UInt256(10_000_000), code: [0x00])])
        #expect(throws: TransactionValidationError.senderNotEOA) {
            try TransactionExecutor.execute(transfer(), state: &state, block: block(), fork: .cancun)
        }
    }

    @Test func creationDeploysCodeAndRefundsAreCapped() throws {
        // Init code: SSTORE(0, 1), SSTORE(0, 0) (refund), then return one byte of code (0x00).
        let initCode: [UInt8] = [
            0x60, 0x01, 0x60, 0x00, 0x55, 0x60, 0x00, 0x60, 0x00, 0x55,
            0x60, 0x01, 0x60, 0x1f, 0xf3,
        ]
        let tx = ExecutableTransaction(
            .legacy(LegacyTransaction(nonce: 0, gasPrice: UInt256(10), gasLimit: 200_000, to: nil, data: initCode, chainId: 1)),
            sender: sender)
        var state = WorldState(accounts: [sender: Account(balance: UInt256(10_000_000))])
        let outcome = try TransactionExecutor.execute(tx, state: &state, block: block(), fork: .cancun)
        let created = ContractAddress.create(sender: sender, nonce: 0)
        #expect(outcome.isSuccess && outcome.createdAddress == created)
        #expect(state[created]?.code == [0x00] && state[created]?.nonce == 1)
        #expect(state[created]?.storage.isEmpty == true)
        // Refund 19,900 (EIP-2200 reset of a set slot) is capped at gasUsed / 5 (EIP-3529).
        let usedBeforeRefund = outcome.gasUsed + outcome.gasRefunded
        #expect(outcome.gasRefunded == Swift.min(19_900, usedBeforeRefund / 5))
    }

    @Test func failedCallConsumesGasButKeepsNonceAndFees() throws {
        let state0 = WorldState(accounts: [
            sender: Account(balance: UInt256(10_000_000)), recipient: Account(code: [0xfe]),  // INVALID
        ])
        var state = state0
        let outcome = try TransactionExecutor.execute(
            transfer(value: 5, gasLimit: 50_000), state: &state, block: block(), fork: .cancun)
        #expect(outcome.status == .undefinedInstruction)
        #expect(outcome.gasUsed == 50_000)
        #expect(state[sender]?.nonce == 1)
        #expect(state[recipient]?.balance == .zero)
        #expect(state[sender]?.balance == UInt256(10_000_000 - 50_000 * 9))
    }
}
