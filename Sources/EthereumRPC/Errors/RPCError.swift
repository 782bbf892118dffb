import EthereumABI
import EthereumPrimitives
import EthereumWire

/// Why a JSON-RPC call failed, keeping the layer the failure came from: the transport (the node was not
/// reached, or did not answer in time), HTTP, the node's JSON-RPC error object, a revert of the executed
/// code (with its raw revert data), or an answer that does not have the promised shape.
public enum RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request did not reach the node, or the answer did not come back.
    case transport(TransportError, method: String, endpoint: String)
    /// The node answered with a JSON-RPC error object (code, message and optional data kept as sent).
    case jsonRPC(code: Int, message: String, data: JSONValue?, method: String)
    /// The executed code reverted (`eth_call`, `eth_estimateGas`, or a mined transaction replayed).
    case reverted(RevertError)
    /// The answer is not what the method promises (`what` names the field and the problem).
    case decoding(method: String, what: String)

    public var description: String {
        switch self {
        case .transport(let error, let method, let endpoint):
            switch error {
            case .timeout:
                return "the node at \(endpoint) did not answer \(method): \(error)"
            case .http:
                return "the node at \(endpoint) answered \(method) with \(error)"
            case .cancelled:
                return "\(method) to \(endpoint) was cancelled"
            case .unreachable:
                return "cannot reach the node at \(endpoint) (\(method)): \(error)"
            }
        case .jsonRPC(let code, let message, let data, let method):
            var text = "\(method) failed: \(message) (JSON-RPC error \(code))"
            if let data, !data.isNull { text += " data: \(JSONValue.excerpt(data))" }
            return text
        case .reverted(let revert):
            return revert.description
        case .decoding(let method, let what):
            return "unexpected answer to \(method): \(what)"
        }
    }

    /// True for failures of the transport (the node not reached, no answer in time, HTTP errors).
    public var isTransportFailure: Bool {
        if case .transport = self { return true }
        return false
    }

    /// The JSON-RPC error message, when the node sent one.
    public var nodeMessage: String? {
        switch self {
        case .jsonRPC(_, let message, _, _): return message
        case .reverted(let revert): return revert.nodeMessage
        default: return nil
        }
    }
}

/// A revert: the raw revert data and what the node said. ``reason`` decodes `Error(string)` and
/// `Panic(uint256)`; callers with a contract ABI decode custom errors from ``data``.
public struct RevertError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The revert data returned by the code (empty when it reverted without data).
    public var data: [UInt8]
    /// The node's error message (e.g. `execution reverted: car not registered`).
    public var nodeMessage: String
    /// The method that ran the code.
    public var method: String

    public init(data: [UInt8], nodeMessage: String, method: String) {
        self.data = data
        self.nodeMessage = nodeMessage
        self.method = method
    }

    /// The decoded reason (Error(string), Panic(uint256), empty, or unrecognized data).
    public var reason: RevertReason { RevertReason(data: data) }

    public var description: String { "\(method) \(reason)" }
}
