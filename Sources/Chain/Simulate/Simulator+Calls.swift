import EVM
import EthereumPrimitives
import EthereumTransactions

/// A simulated call made into the unsigned transaction the block will hold.
struct PreparedSimulatedCall {
    var transaction: Transaction
    var sender: Address
    /// True when the request's gas cap lowered the gas the call asked for.
    var gasCapped: Bool
}

extension Simulator {
    /// Fills a call's defaults and builds its transaction, as geth's `sanitizeCall`, `CallDefaults` and
    /// `ToTransaction` do: the sender's nonce; the gas the block has left (refused with -38015 when the call asks
    /// for more), lowered to what the request's gas cap has left; and the envelope: type 4 with an authorization
    /// list, 3 with blob hashes, legacy with a gas price or before London, else type 2 — fee fields absent are zero.
    func prepare(_ call: SimulatedCall, header: BlockHeader, remainingGas: UInt64) throws(SimulationError) -> PreparedSimulatedCall {
        let request = call.request
        let sender = request.from ?? .zero
        let nonce = request.nonce ?? state.nonce(of: sender)
        let asked = request.gas ?? remainingGas
        if remainingGas < asked { throw .blockGasLimitReached(remaining: remainingGas, required: asked) }
        let gas = Swift.min(asked, budget)

        if request.gasPrice != nil && (request.maxFeePerGas != nil || request.maxPriorityFeePerGas != nil) {
            throw .invalidInput(code: -32000, "both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified")
        }
        if let id = call.chainID, id != UInt256(chain.chainID) {
            throw .invalidInput(code: -32000, "chainId does not match node's (have=\(id), want=\(chain.chainID))")
        }
        let value = request.value ?? .zero
        let data = request.data ?? []
        let accessList = request.accessList ?? []
        let tip = request.maxPriorityFeePerGas ?? .zero
        let feeCap = request.maxFeePerGas ?? .zero

        let transaction: Transaction
        if request.gasPrice != nil || header.baseFeePerGas == nil {
            transaction = .legacy(
                LegacyTransaction(
                    nonce: nonce, gasPrice: request.gasPrice ?? .zero, gasLimit: gas, to: request.to, value: value,
                    data: data, chainId: nil))
        } else if let authorizations = request.authorizationList {
            guard let to = request.to else {
                throw .invalidInput(code: -32000, "set code transaction must not be a create transaction")
            }
            transaction = .setCode(
                SetCodeTransaction(
                    chainId: chain.chainID, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: feeCap, gasLimit: gas,
                    to: to, value: value, data: data, accessList: accessList, authorizationList: authorizations))
        } else if let hashes = request.blobVersionedHashes {
            guard let to = request.to else { throw .invalidInput(code: -32000, "blob transaction must not be a create transaction") }
            transaction = .blob(
                BlobTransaction(
                    chainId: chain.chainID, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: feeCap, gasLimit: gas,
                    to: to, value: value, data: data, accessList: accessList,
                    maxFeePerBlobGas: request.maxFeePerBlobGas ?? .zero, blobVersionedHashes: hashes))
        } else {
            transaction = .dynamicFee(
                DynamicFeeTransaction(
                    chainId: chain.chainID, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: feeCap, gasLimit: gas,
                    to: request.to, value: value, data: data, accessList: accessList))
        }
        return PreparedSimulatedCall(transaction: transaction, sender: sender, gasCapped: gas < asked)
    }
}
