import DevNode
import Foundation
import FuzzHarnesses
import Testing
import TestSupport

/// The node harness's method list is the handler's: every name in it decodes (it is not "method not found"), and
/// every method name the DevNode sources dispatch on is in it, so a method added to the node is fuzzed too.
@Suite struct NodeMethodListTests {
    @Test func everyListedMethodIsKnown() {
        for method in FuzzHarness.nodeMethods {
            do {
                _ = try RPCRequest.decode(method: method, params: nil)
            } catch {
                #expect(error.code != -32601, "\(method) is in the fuzzer's list but the node does not know it")
            }
        }
    }

    @Test func everyDispatchedMethodIsListed() throws {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources/DevNode")
        let walker = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        let pattern = try Regex(#"case[^\n]*?"((?:eth|net|web3|debug|evm|anvil|hardhat|personal|txpool|rpc)_[A-Za-z0-9_]+)""#)
        let namePattern = try Regex(#""((?:eth|net|web3|debug|evm|anvil|hardhat|personal|txpool|rpc)_[A-Za-z0-9_]+)""#)
        var dispatched = Set<String>()
        for case let file as URL in walker where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains(pattern) {
                for match in line.matches(of: namePattern) {
                    if let name = match.output[1].substring { dispatched.insert(String(name)) }
                }
            }
        }
        #expect(dispatched.count >= 40, "found only \(dispatched.count) dispatched method names under Sources/DevNode")
        let missing = dispatched.subtracting(FuzzHarness.nodeMethods).sorted()
        #expect(missing.isEmpty, "methods the node dispatches but the node fuzzer never calls: \(missing)")
    }
}
