import EthereumPrimitives

/// Every fork-dependent rule the interpreter and the transaction executor consult, resolved once
/// per transaction from a ``Hardfork`` so that instruction bodies test plain fields.
public struct ForkRules: Sendable {
    /// The fork these rules describe.
    public let fork: Hardfork

    /// EIP-7 (Homestead): a contract creation whose code deposit runs out of gas fails (before, it
    /// succeeded with empty code); creation transactions pay 53,000 instead of 21,000.
    public let homestead: Bool
    /// EIP-150 (Tangerine Whistle): a call forwards at most all but one 64th of the remaining gas, and
    /// asking for more is not an error.
    public let allButOne64th: Bool
    /// EIP-161 (Spurious Dragon): empty accounts count as dead; touched empty accounts are deleted at
    /// the end of a transaction; new contracts start with nonce 1.
    public let emptyAccountsAreDead: Bool
    /// Gas per byte of EXP's exponent: 10, then 50 from EIP-160.
    public let expByteCost: Int64
    /// EIP-170: the largest deployable code, or nil when unlimited (before Spurious Dragon).
    public let maxCodeSize: Int?
    /// EIP-3860: the largest init code, or nil when unlimited (before Shanghai).
    public let maxInitCodeSize: Int?
    /// EIP-3860: gas per 32-byte word of init code for CREATE/CREATE2 and creation transactions.
    public let initCodeWordCost: Int64
    /// EIP-3541 (London): new code may not start with 0xEF.
    public let rejectsCodeStartingWithEF: Bool
    /// How SSTORE is priced in this fork.
    public let sstore: SStoreRules
    /// EIP-2929 (Berlin): accounts and storage slots are cold until first accessed in a transaction.
    public let accessLists: Bool
    /// EIP-2929: the surcharge on first access to an account (2600 − 100).
    public let coldAccountSurcharge: Int64
    /// EIP-2929: the surcharge on first access to a storage slot (2100 − 100).
    public let coldSlotSurcharge: Int64
    /// SELFDESTRUCT's refund: 24,000, removed by EIP-3529 (London).
    public let selfDestructRefund: Int64
    /// The refund cap divisor: refunds are at most gas used / 2, or / 5 from EIP-3529 (London).
    public let refundQuotient: Int64
    /// EIP-6780 (Cancun): SELFDESTRUCT only deletes an account created in the same transaction.
    public let selfDestructOnlyIfCreatedInTransaction: Bool
    /// EIP-3651 (Shanghai): the coinbase starts warm.
    public let warmCoinbase: Bool
    /// EIP-4399 (Paris): opcode 0x44 returns the beacon chain's randomness instead of the difficulty.
    public let prevRandao: Bool
    /// EIP-1559 (London): base fee and fee-market transactions.
    public let baseFee: Bool
    /// EIP-4844 (Cancun): blob transactions and blob gas.
    public let blobs: Bool
    /// EIP-7702 (Prague): accounts may delegate their code with a `0xef0100 ‖ address` designator.
    public let codeDelegation: Bool
    /// The blob parameters a chain uses unless its config says otherwise (EIP-4844, EIP-7691); nil before
    /// Cancun.
    public let blobSchedule: BlobSchedule?
    /// The most blobs one transaction may carry, when that is below the block maximum (EIP-7594, Osaka: 6).
    public let maxBlobsPerTransaction: UInt64?
    /// The most gas one transaction may ask for (EIP-7825, Osaka: 2^24).
    public let transactionGasLimitCap: UInt64?

    /// Resolves the rules of `fork`.
    public init(_ fork: Hardfork) {
        self.fork = fork
        homestead = fork >= .homestead
        allButOne64th = fork >= .tangerineWhistle
        emptyAccountsAreDead = fork >= .spuriousDragon
        expByteCost = fork >= .spuriousDragon ? 50 : 10
        maxCodeSize = fork >= .spuriousDragon ? 24_576 : nil
        maxInitCodeSize = fork >= .shanghai ? 49_152 : nil
        initCodeWordCost = fork >= .shanghai ? 2 : 0
        rejectsCodeStartingWithEF = fork >= .london
        sstore = SStoreRules(fork)
        accessLists = fork >= .berlin
        coldAccountSurcharge = fork >= .berlin ? 2_500 : 0
        coldSlotSurcharge = fork >= .berlin ? 2_000 : 0
        selfDestructRefund = fork >= .london ? 0 : 24_000
        refundQuotient = fork >= .london ? 5 : 2
        selfDestructOnlyIfCreatedInTransaction = fork >= .cancun
        warmCoinbase = fork >= .shanghai
        prevRandao = fork >= .paris
        baseFee = fork >= .london
        blobs = fork >= .cancun
        codeDelegation = fork >= .prague
        switch fork {  // EIP-7892, EIP-7691, EIP-4844
        case .bpo2: blobSchedule = .bpo2
        case .bpo1: blobSchedule = .bpo1
        default: blobSchedule = fork >= .prague ? .prague : fork >= .cancun ? .cancun : nil
        }
        maxBlobsPerTransaction = fork >= .osaka ? 6 : nil  // EIP-7594
        transactionGasLimitCap = fork >= .osaka ? 1 << 24 : nil  // EIP-7825
    }
}

/// SSTORE pricing: the original rule (set 20,000 / reset 5,000, refund on clear) or net gas
/// metering (EIP-1283 in Constantinople; EIP-2200 from Istanbul, adjusted by EIP-2929 and EIP-3529).
public struct SStoreRules: Sendable {
    /// Which algorithm applies.
    public enum Kind: Sendable {
        /// Frontier–Byzantium and Petersburg.
        case legacy
        /// EIP-1283 (Constantinople only): net metering without the stipend sentry.
        case netMeteringEIP1283
        /// EIP-2200 (Istanbul onward): net metering, failing when gas left ≤ the 2300 stipend.
        case netMeteringEIP2200
    }

    /// The algorithm.
    public let kind: Kind
    /// Cost of a no-op or dirty write (SLOAD_GAS: 200 in EIP-1283, 800 in EIP-2200, 100 warm in
    /// EIP-2929).
    public let noopCost: Int64
    /// Cost of writing a non-zero value to a zero slot.
    public let setCost: Int64
    /// Cost of changing a non-zero slot (5,000; 2,900 from EIP-2929, which moved 2,100 to the cold
    /// surcharge).
    public let resetCost: Int64
    /// Refund for clearing a slot (15,000; 4,800 from EIP-3529).
    public let clearRefund: Int64

    /// The SSTORE rules of `fork`.
    public init(_ fork: Hardfork) {
        switch fork {
        case .constantinople: kind = .netMeteringEIP1283
        case _ where fork >= .istanbul: kind = .netMeteringEIP2200
        default: kind = .legacy
        }
        setCost = 20_000
        if fork >= .berlin {
            noopCost = 100
            resetCost = 2_900
        } else {
            noopCost = fork >= .istanbul ? 800 : 200
            resetCost = 5_000
        }
        // EIP-3529: SSTORE_CLEARS_SCHEDULE = SSTORE_RESET_GAS + ACCESS_LIST_STORAGE_KEY_COST = 4800.
        clearRefund = fork >= .london ? 4_800 : 15_000
    }
}
