import ContractBindingsGenerator
import EthereumContracts
import Foundation
import Testing
import TestSupport

/// Reading every artifact format the generator and `deploy --artifact` take, and the generator's naming rules.
@Suite struct ArtifactTests {
    static let abi = #"[{"type":"constructor","inputs":[{"name":"supply","type":"uint256"}],"stateMutability":"nonpayable"},{"type":"function","name":"f","inputs":[],"outputs":[],"stateMutability":"view"}]"#

    @Test func everyFormat() throws {
        let plain = try ContractArtifact.readOne(json: Array(Self.abi.utf8), fileName: "dir/Token.abi.json")
        #expect(plain.name == "Token" && plain.format == .abi && plain.bytecode == nil)

        let foundry = #"{"abi":\#(Self.abi),"bytecode":{"object":"0x6001","linkReferences":{}},"deployedBytecode":{"object":"0x02"},"metadata":{"settings":{"compilationTarget":{"src/T.sol":"Tok"}},"output":{"userdoc":{"notice":"A token","methods":{"f()":{"notice":"Does f"}}},"devdoc":{"title":"Tok","methods":{"f()":{"details":"d","params":{}}}}}}}"#
        let f = try ContractArtifact.readOne(json: Array(foundry.utf8), fileName: "out/T.sol/Tok.json")
        #expect(f.name == "Tok" && f.format == .foundry && f.bytecode == [0x60, 0x01] && f.deployedBytecode == [0x02])
        #expect(f.documentation.notice == "A token" && f.documentation.title == "Tok")
        #expect(f.documentation.functions["f()"] == NatSpecEntry(notice: "Does f", details: "d"))

        let hardhat = #"{"_format":"hh-sol-artifact-1","contractName":"HH","sourceName":"contracts/HH.sol","abi":\#(Self.abi),"bytecode":"0x6002","deployedBytecode":"0x","linkReferences":{}}"#
        let h = try ContractArtifact.readOne(json: Array(hardhat.utf8), fileName: "HH.json")
        #expect(h.name == "HH" && h.format == .hardhat && h.bytecode == [0x60, 0x02] && h.deployedBytecode == nil)

        let vyper = #"{"version":"0.4.3","contracts/a.vy":{"abi":\#(Self.abi),"bytecode":"0x6003","bytecode_runtime":"0x03","userdoc":{"notice":"A"},"devdoc":{}},"contracts/b.vy":{"abi":[],"bytecode":"0x","bytecode_runtime":"0x"}}"#
        let v = try ContractArtifact.read(json: Array(vyper.utf8), fileName: "combined.json")
        #expect(v.map(\.name) == ["a", "b"] && v[0].format == .vyperCombined && v[0].bytecode == [0x60, 0x03] && v[0].documentation.notice == "A")
        #expect(throws: ABIError.self) { try ContractArtifact.readOne(json: Array(vyper.utf8), fileName: "combined.json") }

        let solc = #"{"contracts":{"x.sol:X":{"abi":"[]","bin":"6004","bin-runtime":"04"}},"version":"0.8.26"}"#
        let s = try ContractArtifact.readOne(json: Array(solc.utf8), fileName: "combined.json")
        #expect(s.name == "X" && s.format == .solcCombined && s.bytecode == [0x60, 0x04])

        // Unlinked library placeholders: no bytecode, and the libraries named.
        let unlinked = #"{"abi":[],"bytecode":{"object":"0x73__$1234567890abcdef1234567890abcdef12$__6000"}}"#
        let u = try ContractArtifact.readOne(json: Array(unlinked.utf8), fileName: "L.json")
        #expect(u.bytecode == nil && u.unlinkedLibraries == ["__$1234567890abcdef1234567890abcdef12$__"])

        for bad in ["{}", "[1]", #"{"abi":{}}"#, "not json", #"{"abi":[],"bytecode":"0xzz"}"#] {
            #expect(throws: ABIError.self, "\(bad)") { try ContractArtifact.read(json: Array(bad.utf8), fileName: "bad.json") }
        }
    }

    /// The CarChain project's own artifact (vyper, with NatSpec when compiled with it) reads as Hardhat-shaped.
    @Test func theCarChainArtifact() throws {
        let bytes = try InputFile.read(TestPaths.packageRoot.appendingPathComponent("contracts/CarChain.json").path, limit: 1 << 24)
        let artifact = try ContractArtifact.readOne(json: bytes, fileName: "CarChain.json")
        #expect(artifact.name == "CarChain" && artifact.bytecode?.isEmpty == false && artifact.abi.function(named: "rentCar") != nil)
    }

    @Test func generatedNames() throws {
        func source(_ abi: String, name: String = "T") throws -> String {
            BindingGenerator.generate(try ContractArtifact.readOne(json: Array(abi.utf8), fileName: name + ".json")).source
        }
        // Overloads are named by their parameter types; tuples become structs named by internalType.
        let overloads = try source(#"""
            [{"type":"function","name":"f","inputs":[],"outputs":[],"stateMutability":"view"},
             {"type":"function","name":"f","inputs":[{"name":"a","type":"uint256[2]"},{"name":"p","type":"tuple[]","internalType":"struct Lib.Pair[]","components":[{"name":"x","type":"int24"},{"name":"in","type":"bytes"}]}],"outputs":[],"stateMutability":"nonpayable"},
             {"type":"function","name":"self","inputs":[{"name":"_options","type":"address"}],"outputs":[{"name":"","type":"uint40"},{"name":"b","type":"int72"}],"stateMutability":"pure"}]
            """#)
        #expect(overloads.contains("func f_(options: CallOptions = .latest)"))
        #expect(overloads.contains("func f_uint256Array2_tupleArray(a: [UInt256], p: [Pair], options: TransactOptions = .default)"))
        #expect(overloads.contains("struct Pair: ABITuple"))
        #expect(overloads.contains("var x: Int32") && overloads.contains("var in_: [UInt8]"))
        // Keywords get a trailing underscore; the methods' own `options` label is never taken.
        #expect(overloads.contains("func self_(options_: Address, options: CallOptions = .latest) async throws -> Self_Output"))
        #expect(overloads.contains("var field0: UInt64") && overloads.contains("var b: Int256"))
        #expect(BindingGenerator.typeName(for: "erc20-token") == "Erc20Token")
        #expect(BindingGenerator.typeName(for: "ERC20") == "ERC20")
    }
}
