import Chain
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import EthereumWire

/// The node-control and signing methods of anvil and Hardhat (issue 18): impersonation, reset, state dumps,
/// block settings, node information, `txpool_inspect`, `eth_signTypedData_v4`, `eth_signTransaction` and
/// `eth_newPendingTransactionFilter`. Decoded here and answered in DevNodeMethods.swift, so the shared
/// ``RPCRequest`` holds them in one case. A `hardhat` flag marks the Hardhat spelling where its answer
/// differs from anvil's (Hardhat answers `true` where anvil answers `null`).
public enum DevNodeRequest: Sendable, Equatable {
    case impersonate(Address, hardhat: Bool)
    case stopImpersonating(Address, hardhat: Bool)
    case autoImpersonate(Bool)
    /// Back to the first block; with `forking`, a new fork of that remote and block (fork mode only).
    case reset(hardhat: Bool, forking: ResetForking?)
    case dumpState
    case loadState([UInt8])
    case setBlockGasLimit(UInt64)
    case setCoinbase(Address, hardhat: Bool)
    case dropTransaction(Bytes32, hardhat: Bool)
    case setMinGasPrice(UInt256, hardhat: Bool)
    case setNextBlockBaseFee(UInt256, hardhat: Bool)
    case nodeInfo
    case metadata(hardhat: Bool)
    case txpoolInspect
    case signTypedData(Address, TypedData)
    case signTransaction(CallRequest)
    case newPendingTransactionFilter
    /// eth_call / eth_estimateGas with geth's state override set (third parameter), decoded as eth_simulateV1's.
    case callWithOverrides(CallRequest, BlockID, StateOverrides)
    case estimateGasWithOverrides(CallRequest, BlockID, StateOverrides)
    // anvil's daily names (issue 31), answered in DevNodeMethods.swift. The `hardhat_` spellings of
    // dropAllTransactions, addBalance and dealERC20 are anvil's own aliases and answer as anvil does.
    /// `anvil_dropAllTransactions`: empties the pool.
    case dropAllTransactions
    /// `anvil_setChainId`.
    case setChainId(UInt64)
    /// `anvil_setTime` / `evm_setTime`: seconds (a value above 10^12 is milliseconds, as anvil reads it).
    case setTime(UInt64)
    /// `anvil_getAutomine` / `hardhat_getAutomine`.
    case getAutomine
    /// `anvil_getIntervalMining`: the interval in seconds, null unless interval mining runs.
    case getIntervalMining
    /// `anvil_addBalance`: the balance plus the amount (saturating, as anvil).
    case addBalance(Address, UInt256)
    /// `anvil_dealERC20` (`anvil_setERC20Balance`): the owner's balance of the token.
    case dealERC20(owner: Address, token: Address, amount: UInt256)
    /// `anvil_setERC20Allowance`: what the owner lets the spender take of the token.
    case setERC20Allowance(owner: Address, spender: Address, token: Address, amount: UInt256)

    /// The request `method` names, nil when it is none of these.
    static func decode(method: String, _ p: RPCParams) throws(JSONRPCErrorObject) -> DevNodeRequest? {
        let hardhat = method.hasPrefix("hardhat_")
        switch method {
        case "anvil_impersonateAccount", "hardhat_impersonateAccount":
            try p.expect(1, 1); return .impersonate(try p.address(0), hardhat: hardhat)
        case "anvil_stopImpersonatingAccount", "hardhat_stopImpersonatingAccount":
            try p.expect(1, 1); return .stopImpersonating(try p.address(0), hardhat: hardhat)
        case "anvil_autoImpersonateAccount":
            try p.expect(1, 1); return .autoImpersonate(try p.bool(0))
        case "anvil_reset", "hardhat_reset":
            try p.expect(0, 1)
            return .reset(hardhat: hardhat, forking: try ResetForking.decode(p.optional(0)))
        case "anvil_dumpState", "hardhat_dumpState":
            // anvil's optional `preserveHistoricalStates` flag: only `false` can be honoured (the dump holds the
            // head's state, not past ones).
            try p.expect(0, 1)
            if p.optional(0) != nil, try p.bool(0) {
                throw .invalidParams("invalid argument 0: historical states are not dumped (the dump holds the head state)")
            }
            return .dumpState
        case "anvil_loadState", "hardhat_loadState":
            try p.expect(1, 1); return .loadState(try p.bytes(0))
        case "evm_setBlockGasLimit", "anvil_setBlockGasLimit":
            try p.expect(1, 1); return .setBlockGasLimit(try p.uint64(0))
        case "anvil_setCoinbase", "hardhat_setCoinbase":
            try p.expect(1, 1); return .setCoinbase(try p.address(0), hardhat: hardhat)
        case "anvil_dropTransaction", "hardhat_dropTransaction":
            try p.expect(1, 1); return .dropTransaction(try p.hash(0), hardhat: hardhat)
        case "anvil_setMinGasPrice", "hardhat_setMinGasPrice":
            try p.expect(1, 1); return .setMinGasPrice(try p.uint256(0), hardhat: hardhat)
        case "anvil_setNextBlockBaseFeePerGas", "hardhat_setNextBlockBaseFeePerGas":
            try p.expect(1, 1); return .setNextBlockBaseFee(try p.uint256(0), hardhat: hardhat)
        case "anvil_nodeInfo": try p.expect(0, 0); return .nodeInfo
        case "anvil_metadata", "hardhat_metadata": try p.expect(0, 0); return .metadata(hardhat: hardhat)
        case "txpool_inspect": try p.expect(0, 0); return .txpoolInspect
        case "eth_signTypedData_v4", "eth_signTypedData":
            try p.expect(2, 2)
            return .signTypedData(try p.address(0), try typedData(p.required(1)))
        case "eth_signTransaction": try p.expect(1, 1); return .signTransaction(try p.callRequest(0))
        case "anvil_dropAllTransactions", "hardhat_dropAllTransactions": try p.expect(0, 0); return .dropAllTransactions
        case "anvil_setChainId": try p.expect(1, 1); return .setChainId(try p.uint64(0))
        case "anvil_setTime", "evm_setTime":
            try p.expect(1, 1)
            let value = try p.uint256(0)
            guard value < UInt256(UInt64.max) else { throw .invalidParams("invalid argument 0: the timestamp is too big") }
            // As anvil (for Ganache's clients): a value above 10^12 is milliseconds.
            let raw = value.low64
            return .setTime(raw > 1_000_000_000_000 ? raw / 1000 : raw)
        case "anvil_getAutomine", "hardhat_getAutomine": try p.expect(0, 0); return .getAutomine
        case "anvil_getIntervalMining": try p.expect(0, 0); return .getIntervalMining
        case "anvil_addBalance", "hardhat_addBalance": try p.expect(2, 2); return .addBalance(try p.address(0), try p.uint256(1))
        case "anvil_dealERC20", "hardhat_dealERC20", "anvil_setERC20Balance":
            try p.expect(3, 3); return .dealERC20(owner: try p.address(0), token: try p.address(1), amount: try p.uint256(2))
        case "anvil_setERC20Allowance":
            try p.expect(4, 4)
            return .setERC20Allowance(owner: try p.address(0), spender: try p.address(1), token: try p.address(2), amount: try p.uint256(3))
        case "eth_newPendingTransactionFilter":
            // anvil and geth take an optional `fullTx` flag; full transactions are not offered here.
            try p.expect(0, 1)
            if p.optional(0) != nil, try p.bool(0) {
                throw .invalidParams("invalid argument 0: full transactions are not supported, only hashes")
            }
            return .newPendingTransactionFilter
        default: return nil
        }
    }

    /// Parameter `i` as a state override set, nil when absent, null or empty.
    static func stateOverrides(_ p: RPCParams, _ i: Int) throws(JSONRPCErrorObject) -> StateOverrides? {
        guard let value = p.optional(i) else { return nil }
        let overrides = try RPCParams.wire(i) { () throws(WireError) in try SimulateRequestWire.stateOverrides(value, path: "stateOverrides") }
        return overrides.isEmpty ? nil : overrides
    }

    /// EIP-712 typed data as an object, or as the JSON text of one (MetaMask sends a string).
    private static func typedData(_ value: JSONValue) throws(JSONRPCErrorObject) -> TypedData {
        do {
            if case .string(let text) = value { return try TypedData(jsonText: text) }
            return try TypedData(json: value)
        } catch {
            throw .invalidParams("invalid argument 1: \(error.description)")
        }
    }
}

/// `anvil_reset` / `hardhat_reset`'s forking parameters: `[{"forking": {"jsonRpcUrl": URL, "blockNumber": N}}]`, or
/// anvil's bare `[{"jsonRpcUrl": URL, "blockNumber": N}]`. Either member may be left out: the URL is then the
/// node's current remote, the block the remote's latest. The block is a JSON number (Hardhat) or a quantity.
public struct ResetForking: Sendable, Equatable {
    /// The node to fork; nil: the current remote.
    public var url: String?
    /// The block to fork at; nil: the remote's latest.
    public var blockNumber: UInt64?

    public init(url: String? = nil, blockNumber: UInt64? = nil) {
        self.url = url
        self.blockNumber = blockNumber
    }

    /// The forking parameters of argument 0; nil for none (`{}`, `{"forking": null}` or nothing: a plain reset).
    static func decode(_ argument: JSONValue?) throws(JSONRPCErrorObject) -> ResetForking? {
        guard let argument else { return nil }
        guard case .object(let outer) = argument else {
            throw .invalidParams("invalid argument 0: expected an object (forking options) or nothing")
        }
        if outer.isEmpty { return nil }
        var members = outer
        if let forking = outer.first(where: { $0.key == "forking" }) {
            guard outer.count == 1 else { throw .invalidParams("invalid argument 0: unknown member beside \"forking\"") }
            switch forking.value {
            case .null: return nil
            case .object(let inner): members = inner
            default: throw .invalidParams("invalid argument 0: forking: expected an object")
            }
        }
        var result = ResetForking()
        for (key, value) in members {
            switch key {
            case "jsonRpcUrl":
                guard let url = value.stringValue, !url.isEmpty else {
                    throw .invalidParams("invalid argument 0: forking.jsonRpcUrl: expected a URL string")
                }
                result.url = url
            case "blockNumber":
                if value.isNull { continue }
                do { result.blockNumber = try value.wireUInt64OrNumber("forking.blockNumber") } catch {
                    throw .invalidParams("invalid argument 0: \(error.description)")
                }
            default:
                throw .invalidParams("invalid argument 0: forking: unknown member \(JSONValue.quote(String(key.prefix(64))))")
            }
        }
        return result
    }
}
