import EthereumABI
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire
import Foundation
import Testing
import TestSupport

/// The client against a scripted HTTP server: envelopes, ids, batches, error mapping, timeouts, retries.
@Suite struct ClientTests {
    @Test func singleCallSendsAnEnvelopeAndReadsTheResult() async throws {
        let server = try await ScriptedHTTPServer.start { _, body in
            .json(Wire.result(id: Wire.parse(body)["id"].flatMap { Int($0.description) } ?? 0, #""0x4""#))
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5)
        #expect(try await client.chainID() == 4)
        let sent = Wire.parse(Array(server.requests[0].utf8))
        #expect(sent["jsonrpc"] == .string("2.0"))
        #expect(sent["method"] == .string("eth_chainId"))
        #expect(sent["params"] == .array([]))
    }

    @Test func typedParametersAreInWireForm() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in .json(Wire.result(id: 1, #""0x0""#)) }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5)
        let address = try Address("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
        _ = try await client.balance(of: address, at: .number(255))
        _ = try await client.transactionCount(of: address, at: .pending)
        let first = Wire.parse(Array(server.requests[0].utf8))
        #expect(first["params"] == .array([.string("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"), .string("0xff")]))
        let second = Wire.parse(Array(server.requests[1].utf8))
        #expect(second["params"]?.arrayValue?.last == .string("pending"))
    }

    @Test func batchAnswersAreMatchedByIDWithPerItemErrors() async throws {
        // Answers come back in reverse order; the second call fails on its own.
        let server = try await ScriptedHTTPServer.start { _, body in
            let ids = (Wire.parse(body).arrayValue ?? []).compactMap { $0["id"].flatMap { Int($0.description) } }
            let answers = ids.reversed().map { id in
                id == 2 ? Wire.error(id: id, code: -32602, message: "invalid params: bad address") : Wire.result(id: id, "\"0x\(String(id * 10, radix: 16))\"")
            }
            return .json("[" + answers.joined(separator: ",") + "]")
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5)
        let address = Address.zero
        let results = try await client.batch([
            RPCMethods.balance(of: address), RPCMethods.balance(of: address), RPCMethods.balance(of: address),
        ])
        #expect(results.count == 3)
        #expect(try results[0].get() == UInt256(10))
        #expect(try results[2].get() == UInt256(30))
        guard case .failure(.jsonRPC(let code, let message, _, let method)) = results[1] else {
            Issue.record("expected a JSON-RPC error for item 2, got \(results[1])")
            return
        }
        #expect(code == -32602)
        #expect(message == "invalid params: bad address")
        #expect(method == "eth_getBalance")
        #expect(server.requests.count == 1)
        #expect(Wire.parse(Array(server.requests[0].utf8)).arrayValue?.count == 3)
    }

    @Test func batchWithAMissingAnswerFailsThatItemOnly() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in
            .json("[" + Wire.result(id: 1, #""0x1""#) + "]")
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5)
        let results = try await client.batch([RPCMethods.blockNumber(), RPCMethods.blockNumber()])
        #expect(try results[0].get() == 1)
        guard case .failure(.decoding(_, let what)) = results[1] else {
            Issue.record("expected a decoding error, got \(results[1])")
            return
        }
        #expect(what.contains("no answer for id 2"))
    }

    @Test func batchRejectedAsAWholeIsOneError() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in
            .json(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}}"#)
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5)
        await #expect(throws: RPCError.jsonRPC(code: -32600, message: "batch too large", data: nil, method: "batch of 2")) {
            _ = try await client.batch([RPCMethods.blockNumber(), RPCMethods.blockNumber()])
        }
    }

    @Test func batchWithUnknownIDIsADecodingError() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in .json("[" + Wire.result(id: 7, #""0x1""#) + "]") }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5)
        do {
            _ = try await client.batch([RPCMethods.blockNumber()])
            Issue.record("expected an error")
        } catch {
            guard case .decoding(_, let what) = error else { Issue.record("got \(error)"); return }
            #expect(what.contains("id 7 matches no request"))
        }
    }

    @Test func revertIsDecodedWithItsReason() async throws {
        let data = Wire.errorStringData("car not registered")
        let server = try await ScriptedHTTPServer.start { _, _ in
            .json(Wire.error(id: 1, code: 3, message: "execution reverted: car not registered", data: "\"\(data)\""))
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5)
        do {
            _ = try await client.call(CallRequest(to: .zero, data: [1, 2, 3]))
            Issue.record("expected a revert")
        } catch {
            guard case .reverted(let revert) = error else { Issue.record("got \(error)"); return }
            #expect(revert.reason == .error("car not registered"))
            #expect(Hex.encode(revert.data) == data)
            #expect(revert.method == "eth_call")
            #expect(error.description == "eth_call reverted: car not registered")
        }
        #expect(server.requests.count == 1)  // a revert is an answer: never retried
    }

    @Test func revertWithoutDataIsAnEmptyRevert() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in .json(Wire.error(id: 1, code: -32000, message: "execution reverted")) }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5)
        do {
            _ = try await client.estimateGas(CallRequest(to: .zero))
            Issue.record("expected a revert")
        } catch {
            guard case .reverted(let revert) = error else { Issue.record("got \(error)"); return }
            #expect(revert.data.isEmpty)
            #expect(revert.reason == .empty)
        }
    }

    @Test func jsonRPCErrorKeepsCodeMessageAndData() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in
            // A 4xx with a JSON-RPC error body is the node's answer (HTTP 429 is not: RetryAfterTests).
            .json(Wire.error(id: 1, code: -32005, message: "limit exceeded", data: #"{"retryAfter":2}"#), status: 400)
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5)
        do {
            _ = try await client.blockNumber()
            Issue.record("expected an error")
        } catch {
            guard case .jsonRPC(let code, let message, let data, let method) = error else { Issue.record("got \(error)"); return }
            #expect(code == -32005)
            #expect(message == "limit exceeded")
            #expect(data?["retryAfter"] == .number("2"))
            #expect(method == "eth_blockNumber")
        }
        #expect(server.requests.count == 1)  // a JSON-RPC error is the node's answer: not retried
    }

    @Test func httpErrorWithoutJSONIsAnHTTPFailure() async throws {
        let server = try await ScriptedHTTPServer.start { _, _ in
            ScriptedHTTPServer.Reply(status: 500, body: Array("<html>Internal Server Error</html>\n".utf8))
        }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5)
        do {
            _ = try await client.blockNumber()
            Issue.record("expected an error")
        } catch {
            #expect(error == .transport(.http(status: 500, body: "<html>Internal Server Error</html>"), method: "eth_blockNumber", endpoint: server.url))
            #expect(error.description.contains("HTTP 500"))
        }
        #expect(server.requests.count == 1)  // 500 is not among the retried statuses
    }

    @Test func malformedAnswersAreDecodingErrors() async throws {
        let answers = [
            "not json at all",
            Wire.result(id: 9, #""0x1""#),  // wrong id
            Wire.result(id: 1, #"12"#),  // a number, not a quantity
            #"{"jsonrpc":"2.0","id":1}"#,  // neither result nor error
        ]
        let server = try await ScriptedHTTPServer.start { index, _ in .json(answers[min(index, answers.count - 1)]) }
        defer { Task { await server.stop() } }
        let client = try RPCClient(url: server.url, timeout: 5)
        var messages: [String] = []
        for _ in answers {
            do {
                _ = try await client.blockNumber()
                Issue.record("expected an error")
            } catch {
                guard case .decoding(let method, let what) = error else { Issue.record("got \(error)"); continue }
                #expect(method == "eth_blockNumber")
                messages.append(what)
            }
        }
        #expect(messages[0].contains("not JSON"))
        #expect(messages[1].contains("does not match"))
        #expect(messages[2].contains("block number: expected a string"))
        #expect(messages[3].contains("neither result nor error"))
    }
}
