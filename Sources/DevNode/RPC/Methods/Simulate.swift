import Chain
import EthereumPrimitives
import EthereumWire

extension NodeRPCHandler {
    /// `eth_simulateV1`: simulates the request's blocks on `block` under the node's call limits (its gas cap is
    /// shared by every call of the request, its time limit covers the whole request).
    func simulate(_ request: SimulationRequest, at block: BlockID, fullTransactions: Bool) async throws(JSONRPCErrorObject) -> JSONValue {
        let blocks: [SimulatedBlock]
        do {
            blocks = try await chain.simulate(request, at: block, limits: limits.calls)
        } catch {
            throw JSONRPCErrorObject(error)
        }
        return SimulateResultWire.blocks(blocks, fullTransactions: fullTransactions)
    }
}

extension JSONRPCErrorObject {
    /// A failed simulation's error: the spec's code and geth's message.
    init(_ error: SimulationError) {
        if case .chain(let chainError) = error, case .unknownBlock = chainError {
            self.init(code: chainError.rpcCode, message: error.description)
        } else if case .chain(let chainError) = error {
            self.init(chainError)
        } else {
            self.init(code: error.rpcCode, message: error.description)
        }
    }
}

extension RPCRequest {
    /// Decodes `eth_simulateV1`'s parameters: the payload and an optional block (default latest).
    static func simulate(_ p: RPCParams) throws(JSONRPCErrorObject) -> RPCRequest {
        try p.expect(1, 2)
        let payload = try p.required(0)
        let (request, full) = try RPCParams.wire(0) { () throws(WireError) in try SimulateRequestWire.decode(payload) }
        return .simulate(request, try p.block(1), fullTransactions: full)
    }
}
