import CarChain
import EthereumPrimitives
import EthereumRPC

/// Runs one CarChain transaction: find the contract, run the checks that can refuse without gas, send, and
/// return the mined result. A refusal found before sending, or by the gas estimate, is an error that says
/// nothing was sent.
public enum CarChainTransactionRunner {
    /// Checks (unless `precheck` is false) and sends `operation` from the session's signer.
    public static func execute(_ operation: CarChainOperation, session: ChainSession, precheck: Bool = true) async throws -> CarChainTransaction {
        let contract = try await session.contract()
        guard let sender = session.sender else { throw AppError.failed("no signer") }
        if precheck {
            let check = await CarChainPrecheck.make(contract: contract, sender: sender.address)
            if let reason = try await check.refusal(of: operation) {
                throw AppError.failed("\(reason) (checked before sending; nothing was sent)")
            }
        }
        do {
            return try await contract.execute(operation, from: sender.address)
        } catch let error as SendError {
            if let revert = error.revert {
                throw AppError.failed(
                    "\(operation.functionName) would revert: \(reason(revert.data)) (found by eth_estimateGas; nothing was sent)")
            }
            throw error
        }
    }

    /// A revert's reason as a person reads it.
    public static func reason(_ data: [UInt8]) -> String {
        switch CarChainError(revertData: data) {
        case .reverted(let reason): return reason
        case .revertedWithoutReason: return "no reason given"
        case let other: return other.description
        }
    }
}
