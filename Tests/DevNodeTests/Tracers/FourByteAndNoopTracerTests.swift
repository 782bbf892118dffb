import DevNode
import EthereumPrimitives
import Foundation
import Testing

/// `4byteTracer`, `noopTracer`, the struct logger by name, and tracer names the node refuses.
@Suite struct FourByteAndNoopTracerTests {
    @Test func fourByteCountsCallsBySelectorAndSize() async throws {
        let (h, hash) = try await TracerFixture.traced()
        let counts = try await h.result("debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"4byteTracer\"}]")
        // The transaction's own call, logger (twice, one out of gas), the DELEGATECALL and the CALLCODE with the 4
        // bytes; the reverter with 36. Not counted: the identity precompile, the calls without input, the creations.
        #expect(counts == .object([("0x12345678-0", .number("5")), ("0x12345678-32", .number("1"))]))
    }

    @Test func noopAnswersAnEmptyObject() async throws {
        let (h, hash) = try await TracerFixture.traced()
        #expect(try await h.result("debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"noopTracer\"}]") == .object([]))
        let block = try await h.result("debug_traceBlockByNumber", "[\"latest\",{\"tracer\":\"noopTracer\"}]")
        #expect(block == .array([.object([("txHash", .string(hash)), ("result", .object([]))])]))
    }

    @Test func theStructLoggerByNameIsTheDefault() async throws {
        let (h, hash) = try await TracerFixture.traced()
        let plain = try await h.result("debug_traceTransaction", "[\"\(hash)\"]")
        #expect(plain["structLogs"]?.arrayValue?.isEmpty == false)
        for name in ["", "structLogger"] {
            #expect(try await h.result("debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"\(name)\"}]") == plain)
        }
    }

    @Test func unknownTracersAreRefusedNotDefaulted() async throws {
        let (h, hash) = try await TracerFixture.traced()
        let javascript = "{data: [], step: function(log) { this.data.push(log.op.toString()) }, result: function() { return this.data }}"
        for name in ["flatCallTracer", "muxTracer", "CallTracer", "calltracer", javascript] {
            let answer = try await h.answer("debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"\(name)\"}]")
            #expect(answer["error"]?["code"] == .number("-32602"), "\(name)")
            let message = answer["error"]?["message"]?.stringValue ?? ""
            #expect(message.contains("is not a tracer of this node") && message.contains("callTracer"), "\(message)")
        }
    }
}
