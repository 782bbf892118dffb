import Chain
import EthereumPrimitives
import EthereumWire

extension JSONRPCErrorObject {
    /// The answer for a chain error: its JSON-RPC code (``ChainError/rpcCode``) and message, and for a
    /// revert the revert data as hex in `data`. Every failure of the chain reaches the wire through here.
    init(_ error: ChainError) {
        if case .invalidParams(let why) = error {
            self = .invalidParams(why)
            return
        }
        self.init(code: error.rpcCode, message: error.description, data: error.rpcData.map { .string(Hex.encode($0)) })
    }
}
