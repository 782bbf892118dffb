import CarChain
import ContractBindingsGenerator
import EthereumContracts
import EthereumTokens
import Foundation
import Testing
import TestSupport

/// Bindings the ContractBindings plugin generated (at this target's build) from the ABIs of widely used Solidity
/// contracts in testdata/abi: that this file compiles is the first check; the tests encode and decode through them
/// and compare with the ABI codec driven by the contracts' human-readable signatures.
@Suite struct GeneratedBindingTests {
    static let a = try! Address("0x1111111111111111111111111111111111111111")
    static let b = try! Address("0x2222222222222222222222222222222222222222")

    @Test func uniswapV3PoolTuplesAndSignedNarrowIntegers() throws {
        let slot0 = try UniswapV3Pool.Calls.slot0()
        #expect(slot0.calldata == ABISelector(signature: "slot0()").bytes)
        let returned = try ABIEncoder.encode(
            [.uint(UInt256(1) << 96), .signed(-887_272), .uint(7), .uint(8), .uint(9), .uint(0x44), .bool(true)],
            as: [.uint(160), .int(24), .uint(16), .uint(16), .uint(16), .uint(8), .bool])
        let decoded = try slot0.decode(returned)
        #expect(decoded == UniswapV3Pool.Slot0Output(
            sqrtPriceX96: UInt256(1) << 96, tick: -887_272, observationIndex: 7, observationCardinality: 8,
            observationCardinalityNext: 9, feeProtocol: 0x44, unlocked: true))
        // A Swap log with negative int256 amounts, decoded through the event struct.
        let swap = UniswapV3Pool.Swap.event
        let values: [ABIValue] = [.address(Self.a), .address(Self.b), .signed(Int256(-5)), .int(UInt256(10)), .uint(UInt256(3)), .uint(4), .signed(-60)]
        let (topics, data) = try swap.encodeLog(values)
        let event = try #require(try UniswapV3Pool.Swap(log: TransactionLog(address: Self.a, topics: topics, data: data)))
        #expect(event.amount0 == Int256(-5) && event.amount1 == Int256(10) && event.tick == -60 && event.sender == Self.a)
        #expect(try UniswapV3Pool.Swap.filter(sender: Self.a).topics == [[swap.topic0], [Self.a.bytes32]])
        // int24 arguments are range-checked when encoded.
        #expect(throws: ContractError.self) { try UniswapV3Pool.Calls.ticks(tick: 1 << 23) }
        #expect(try UniswapV3Pool.Calls.ticks(tick: -1).calldata == (try ABIFunction(signature: "ticks(int24)").encodeCall([.signed(-1)])))
    }

    @Test func positionManagerStructParametersAndOverloads() throws {
        let params = NonfungiblePositionManager.MintParams(
            token0: Self.a, token1: Self.b, fee: 3000, tickLower: -600, tickUpper: 600, amount0Desired: 10, amount1Desired: 20,
            amount0Min: 1, amount1Min: 2, recipient: Self.a, deadline: 99)
        let call = try NonfungiblePositionManager.Calls.mint(params: params)
        let reference = try ABIFunction(
            signature: "mint((address,address,uint24,int24,int24,uint256,uint256,uint256,uint256,address,uint256))")
        #expect(call.calldata == (try reference.encodeCall([params.abiValue])))
        #expect(try NonfungiblePositionManager.MintParams(abiValue: params.abiValue, path: "p") == params)
        // Overloads named by signature.
        let three = try NonfungiblePositionManager.Calls.safeTransferFrom_address_address_uint256(from: Self.a, to: Self.b, tokenId: 1)
        let four = try NonfungiblePositionManager.Calls.safeTransferFrom_address_address_uint256_bytes(from: Self.a, to: Self.b, tokenId: 1, data: [1])
        #expect(three.function.signature == "safeTransferFrom(address,address,uint256)")
        #expect(four.function.signature == "safeTransferFrom(address,address,uint256,bytes)")
        // A twelve-value output, `operator` made a field name.
        let output: [ABIValue] = [.uint(1), .address(Self.b), .address(Self.a), .address(Self.b), .uint(500), .signed(-10), .signed(10),
                                  .uint(7), .uint(8), .uint(9), .uint(10), .uint(11)]
        let types: [ABIType] = [.uint(96), .address, .address, .address, .uint(24), .int(24), .int(24), .uint(128), .uint256, .uint256, .uint(128), .uint(128)]
        let position = try NonfungiblePositionManager.Calls.positions(tokenId: 1).decode(try ABIEncoder.encode(output, as: types))
        #expect(position.operator_ == Self.b && position.fee == 500 && position.tickLower == -10 && position.tokensOwed1 == 11)
    }

    @Test func multicall3ArraysOfStructs() throws {
        let calls = [Multicall3.Call3(target: Self.a, allowFailure: true, callData: [1, 2]), Multicall3.Call3(target: Self.b, allowFailure: false, callData: [])]
        let call = try Multicall3.Calls.aggregate3(calls: calls)
        let reference = try ABIFunction(signature: "aggregate3((address,bool,bytes)[])")
        #expect(call.calldata == (try reference.encodeCall([.array(calls.map(\.abiValue))])))
        let answer = try ABIEncoder.encode(
            [.array([.tuple([.bool(true), .bytes([0xaa])]), .tuple([.bool(false), .bytes([])])])], as: [.array(.tuple([.bool, .bytes]), count: nil)])
        #expect(try call.decode(answer) == [Multicall3.Result(success: true, returnData: [0xaa]), Multicall3.Result(success: false, returnData: [])])
        #expect(call.function.stateMutability == .payable)
    }

    @Test func wethAndGovernorShapes() throws {
        #expect(WETH9.abi.items.contains(.fallback(.payable)))
        #expect(try WETH9.Calls.deposit().function.stateMutability == .payable)
        #expect(try Governor.Calls.cancel_uint256(proposalId: 1).function.signature == "cancel(uint256)")
        #expect(try Governor.Calls.quorumNumerator_().function.signature == "quorumNumerator()")
        #expect(try Governor.Calls.quorumNumerator_uint256(timepoint: 5).function.signature == "quorumNumerator(uint256)")
        #expect(Governor.abi.errors.count == 31)
        #expect(Governor.Error(revert: .error("x")) == nil)
        #expect(Governor.Error(revert: .custom(try #require(Governor.abi.error(named: "QueueFull")), [])) == .queueFull)
    }

    /// CarChain's binding is generated by the same generator, and committed: it must be what the generator makes now.
    @Test func carChainBindingIsCurrent() throws {
        let root = TestPaths.packageRoot
        let bytes = try InputFile.read(root.appendingPathComponent("contracts/CarChain.json").path, limit: 1 << 24)
        var artifact = try ContractArtifact.readOne(json: bytes, fileName: "contracts/CarChain.json")
        artifact.bytecode = nil
        let generated = BindingGenerator.generate(artifact, options: .init(typeName: "CarChainBinding", sourceName: "CarChain.json"))
        let committed = try String(contentsOf: root.appendingPathComponent("Sources/CarChain/Generated/CarChainBinding.swift"), encoding: .utf8)
        #expect(generated.source == committed, "Sources/CarChain/Generated/CarChainBinding.swift is stale: run make carchain-binding")
        #expect(CarChainBinding.abi == CarChainArtifact.project.abi)
    }

    /// The ready-made token bindings (EthereumTokens) are what the generator makes now from contracts/standards.
    @Test func tokenBindingsAreCurrent() throws {
        let root = TestPaths.packageRoot
        for name in ["ERC20", "ERC721", "ERC1155"] {
            let bytes = try InputFile.read(root.appendingPathComponent("contracts/standards/\(name).abi.json").path, limit: 1 << 20)
            let artifact = try ContractArtifact.readOne(json: bytes, fileName: "\(name).abi.json")
            let generated = BindingGenerator.generate(artifact, options: .init(typeName: name, sourceName: "\(name).abi.json"))
            let committed = try String(contentsOf: root.appendingPathComponent("Sources/EthereumTokens/Generated/\(name).swift"), encoding: .utf8)
            #expect(generated.source == committed, "Sources/EthereumTokens/Generated/\(name).swift is stale: run make token-bindings")
        }
        #expect(ERC20.abi.events.map(\.signature) == ["Transfer(address,address,uint256)", "Approval(address,address,uint256)"])
        #expect(ERC721.Transfer.event.topic0 == ERC20.Transfer.event.topic0 && ERC721.Transfer.event.topicCount == 4)
    }

    /// The snekmate ABIs in testdata are what the venv's vyper writes for the sources the tests compile.
    @Test func snekmateABIsAreCurrent() async throws {
        guard let compiled = try await Snekmate.compiled() else { return }
        for (name, artifact) in compiled.artifacts {
            let bytes = try InputFile.read(TestPaths.packageRoot.appendingPathComponent("testdata/abi/snekmate/\(name).json").path, limit: 1 << 20)
            #expect(try ContractABI(jsonData: bytes) == artifact.abi, "testdata/abi/snekmate/\(name).json differs from vyper's ABI")
        }
    }
}
