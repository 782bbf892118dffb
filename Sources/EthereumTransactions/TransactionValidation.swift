import EthereumPrimitives

extension SignedTransaction {
    /// Checks every rule a transaction must meet on its own (without account state) under `fork`, and
    /// returns the sender.
    ///
    /// In order: the type is enabled in the fork; type-specific structure (blob hashes, authorization list);
    /// v and the chain id (EIP-155 from Spurious Dragon; a chain id must equal `chainID` when one is given);
    /// r and s in range and, from Homestead, s ≤ n/2 (EIP-2); sender recovery; the gas limit covers the
    /// intrinsic gas and (Prague) the EIP-7623 floor; initcode size (EIP-3860, Shanghai); priority fee ≤ max fee
    /// (EIP-1559); gas limit × fee cap fits in 256 bits; nonce below 2^64 − 1 (EIP-2681); the gas limit cap
    /// (EIP-7825, Osaka).
    ///
    /// `recovered`, when given, is what ``sender(allowHighS:)`` returned for this transaction with `allowHighS` set
    /// to `fork < .homestead`, computed ahead of time (a block import recovers the senders of the blocks ahead on
    /// another core); it stands in for the recovery, in the same place among the checks.
    @discardableResult
    public func validate(
        for fork: Hardfork, chainID: UInt64? = nil, recovered: Result<Address, TransactionError>? = nil
    ) throws(TransactionError) -> Address {
        try checkTypeAndChain(fork: fork, chainID: chainID)
        let sender: Address
        switch recovered {
        case .success(let address): sender = address
        case .failure(let error): throw error
        case nil: sender = try self.sender(allowHighS: fork < .homestead)
        }
        try checkGasAndFees(fork: fork)
        return sender
    }

    /// Every rule of ``validate(for:chainID:)`` except the signature's: for a dev node's impersonated sender
    /// (`anvil_impersonateAccount`), whose transaction carries a placeholder signature that recovers to no one.
    public func validateIgnoringSignature(for fork: Hardfork, chainID: UInt64? = nil) throws(TransactionError) {
        try checkTypeAndChain(fork: fork, chainID: chainID)
        try checkGasAndFees(fork: fork)
    }

    private func checkTypeAndChain(fork: Hardfork, chainID: UInt64?) throws(TransactionError) {
        let type = transaction.type
        guard fork >= type.introducedIn else { throw .typeNotSupported(type, fork: fork) }
        try checkStructure(fork: fork)
        try checkChainAndV(fork: fork, chainID: chainID)
    }

    private func checkGasAndFees(fork: Hardfork) throws(TransactionError) {
        let gasLimit = transaction.gasLimit
        let (intrinsic, floor) = transaction.intrinsicGas(fork: fork)
        guard gasLimit >= intrinsic else { throw .intrinsicGasTooLow(gasLimit: gasLimit, intrinsicGas: intrinsic) }
        guard gasLimit >= floor else { throw .floorGasTooLow(gasLimit: gasLimit, floor: floor) }
        if fork >= .shanghai, transaction.isContractCreation, transaction.data.count > IntrinsicGas.maxInitcodeSize {
            throw .initcodeTooLarge(size: transaction.data.count, limit: IntrinsicGas.maxInitcodeSize)
        }
        let maxFee = transaction.maxFeePerGas
        if transaction.gasPrice == nil, transaction.maxPriorityFeePerGas > maxFee {
            throw .priorityFeeAboveMaxFee(priority: transaction.maxPriorityFeePerGas, maxFee: maxFee)
        }
        if maxFee.multipliedReportingOverflow(by: UInt256(gasLimit)).overflow {
            throw .gasLimitPriceProductOverflow
        }
        guard transaction.nonce < UInt64.max else { throw .nonceTooBig }
        if fork >= .osaka, gasLimit > Self.osakaGasLimitCap {
            throw .gasLimitAboveCap(gasLimit: gasLimit, cap: Self.osakaGasLimitCap)
        }
    }

    /// EIP-7825's cap on a transaction's gas limit (2^24), from Osaka.
    public static let osakaGasLimitCap: UInt64 = 1 << 24

    /// The most blobs one transaction may carry in `fork`: the block maximum of EIP-4844 (6) and EIP-7691 (9,
    /// Prague), and EIP-7594's per-transaction limit (6, Osaka).
    public static func maxBlobs(fork: Hardfork) -> Int {
        switch fork {
        case .prague: return 9
        case .osaka: return 6
        default: return 6
        }
    }

    private func checkStructure(fork: Hardfork) throws(TransactionError) {
        switch transaction {
        case .blob(let t):
            guard !t.blobVersionedHashes.isEmpty else { throw .noBlobs }
            let limit = Self.maxBlobs(fork: fork)
            guard t.blobVersionedHashes.count <= limit else {
                throw .tooManyBlobs(count: t.blobVersionedHashes.count, limit: limit)
            }
            for (i, hash) in t.blobVersionedHashes.enumerated() where hash.words.0 >> 56 != 0x01 {
                throw .invalidBlobVersionedHash(index: i)
            }
        case .setCode(let t):
            guard !t.authorizationList.isEmpty else { throw .emptyAuthorizationList }
        default:
            break
        }
    }

    private func checkChainAndV(fork: Hardfork, chainID: UInt64?) throws(TransactionError) {
        let v = signature.v
        guard case .legacy = transaction else {
            if let chainID, let found = transaction.chainId, found != chainID {
                throw .invalidChainID(expected: chainID, found: UInt256(found))
            }
            guard v <= 1 else { throw .invalidYParity(v) }
            return
        }
        let eip155 = fork >= .spuriousDragon
        switch LegacyTransaction.classify(v: v) {
        case .unprotected:
            return
        case .protected(let found, _):
            guard eip155 else { throw .invalidV(v, fork: fork) }
            if let chainID, found != chainID {
                throw .invalidChainID(expected: chainID, found: UInt256(found))
            }
        case .chainIdTooLarge(let found):
            guard eip155 else { throw .invalidV(v, fork: fork) }
            throw .invalidChainID(expected: chainID, found: found)
        case .invalid:
            // 0 and 1 are y parities, not legacy v values; anything else below 35 encodes no chain id.
            guard eip155, v > 1 else { throw .invalidV(v, fork: fork) }
            throw .invalidChainID(expected: chainID, found: nil)
        }
    }
}
