// The binding speaks the contract runtime's types (ContractBackend, TransactionOutcome, TransactionLog,
// CallOutcome), which lived here before EthereumContracts; importing CarChain still brings them.
@_exported import EthereumContracts
