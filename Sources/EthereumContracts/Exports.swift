// What a binding's user needs comes with `import EthereumContracts`: addresses and numbers (EthereumPrimitives),
// keys (EthereumCrypto), ABI types, values, artifacts and revert reasons (EthereumABI), block tags and logs
// (EthereumWire), call requests (EthereumTransactions), and the JSON-RPC client and its senders (EthereumRPC).
@_exported import EthereumABI
@_exported import EthereumCrypto
@_exported import EthereumPrimitives
@_exported import EthereumRPC
@_exported import EthereumTransactions
@_exported import EthereumWire
