import EthereumPrimitives

/// Why one of the app's flows (connect, sign up, log in, rent, …) could not go on, in words for the person
/// using it; the CLI prints ``description`` as its one error line.
public enum AppError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No CarChain contract is known for the chain (none given, none remembered).
    case noContract(chainID: UInt64)
    /// The contract's address holds no code on this chain (nothing deployed there, or a dev method such as
    /// `anvil_reset` or `anvil_setCode` removed it).
    case noCode(address: Address, chainID: UInt64)
    /// Anything else, said in full.
    case failed(String)

    public var description: String {
        switch self {
        case .noContract(let chainID): return "no contract for chain \(chainID): run `carchain deploy` or give --contract ADDRESS"
        case .noCode(let address, let chainID): return "no contract at \(address) on chain \(chainID) (nothing deployed there on this node)"
        case .failed(let message): return message
        }
    }
}
