/// Why one of the app's flows (connect, sign up, log in, rent, …) could not go on, in words for the person
/// using it; the CLI prints ``description`` as its one error line.
public enum AppError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No CarChain contract is known for the chain (none given, none remembered).
    case noContract(chainID: UInt64)
    /// Anything else, said in full.
    case failed(String)

    public var description: String {
        switch self {
        case .noContract(let chainID): return "no contract for chain \(chainID): run `carchain deploy` or give --contract ADDRESS"
        case .failed(let message): return message
        }
    }
}
