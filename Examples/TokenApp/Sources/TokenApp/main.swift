// The README's "Use it from Swift" example, run: deploy the generated `Token`, read, send, decode events, catch a
// revert, call by name at run time, query past logs. Without arguments it runs on an in-process chain
// (EthereumContractsLocal: no node); `TokenApp --rpc URL` runs the same code against a node, signing with the key in
// $PRIVATE_KEY. Prints one line per step and exits 1 on the first failure.
import EthereumContracts
import EthereumContractsLocal
import Foundation

func backend() async throws -> (any ContractBackend, Address) {
    let arguments = CommandLine.arguments
    if let flag = arguments.firstIndex(of: "--rpc"), flag + 1 < arguments.count {
        let node = try RPCClient(url: arguments[flag + 1])
        let key = try PrivateKey(hex: ProcessInfo.processInfo.environment["PRIVATE_KEY"] ?? "")
        let sender = try await TransactionSender.connect(
            client: node, signer: PrivateKeySigner(key: key), options: SendOptions(expectedChainID: try await node.chainID()))
        return (RPCContractBackend(client: node, sender: sender), sender.address)
    }
    let local = try await DevChainBackend.ephemeral()
    return (local, local.defaultSender ?? .zero)
}

func run() async throws {
    let (backend, me) = try await backend()
    let friend = try Address("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")

    // A generated binding: deploy (the artifact had bytecode), read, send, events, typed errors.
    let (token, _) = try await Token.deploy(name: "Demo", symbol: "DMO", supply: 1_000, backend: backend)
    print("deployed", try await token.symbol(), "at", token.address)
    print("balance:", try await token.balanceOf(owner: me))
    let receipt = try await token.transfer(to: friend, amount: 10)
    for transfer in try receipt.events(Token.Transfer.self) { print("sent", transfer.value, "to", transfer.to) }
    do {
        try await token.transfer(to: me, amount: UInt256.max)
        throw ExampleFailure("a transfer past the balance went through")
    } catch let error as ContractError {
        print("refused:", error)
    }

    // Any contract, ABI known at run time; past logs with a filter on an indexed parameter.
    let dynamic = Contract(address: token.address, abi: Token.abi, backend: backend)
    print("dynamic:", try await dynamic.call("balanceOf", [.address(friend)]))
    let mine = try await token.contract.events(try Token.Transfer.filter(sender: me))
    print(mine.count, "transfers from", me)
    guard try await token.balanceOf(owner: friend) == 10, mine.count == 1 else { throw ExampleFailure("unexpected balances or logs") }
}

struct ExampleFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("TokenApp: \(error)\n".utf8))
    exit(1)
}
