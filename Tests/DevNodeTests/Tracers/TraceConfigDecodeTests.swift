import Chain
import DevNode
import EVM
import EthereumPrimitives
import EthereumTransactions
import EthereumWire
import Foundation
import Testing

/// Decoding of the trace config on `debug_traceTransaction`, `debug_traceBlockByNumber`/`ByHash` and
/// `debug_traceCall` (geth's TraceConfig and TraceCallConfig): every tracer and option, and every bad shape
/// refused with -32602 naming what is wrong.
@Suite struct TraceConfigDecodeTests {
    static let hash = "\"0x" + String(repeating: "ab", count: 32) + "\""
    static let call = #"{"to":"0x0000000000000000000000000000000000001001","data":"0x12345678"}"#

    func decode(_ method: String, _ params: String) throws -> RPCRequest {
        try RPCRequest.decode(method: method, params: try JSONValue(parsing: Array(params.utf8)))
    }

    func config(_ json: String) throws -> TraceConfig {
        guard case .traceTransaction(_, let config) = try decode("debug_traceTransaction", "[\(Self.hash),\(json)]") else {
            Issue.record("not a traceTransaction")
            return TraceConfig()
        }
        return config
    }

    func refusal(_ method: String, _ params: String) -> String? {
        do {
            _ = try decode(method, params)
            return nil
        } catch let error as JSONRPCErrorObject {
            #expect(error.code == -32602, "\(method) \(params): \(error)")
            return error.message
        } catch {
            Issue.record("\(error)")
            return nil
        }
    }

    @Test func everyTracerAndItsOptions() throws {
        #expect(try config("null") == TraceConfig())
        #expect(try config("{}") == TraceConfig())
        #expect(try config(#"{"tracer":"callTracer"}"#).tracer == .callTracer(CallTracerOptions()))
        #expect(
            try config(#"{"tracer":"callTracer","tracerConfig":{"onlyTopCall":true,"withLog":true}}"#).tracer
                == .callTracer(CallTracerOptions(onlyTopCall: true, withLog: true)))
        #expect(try config(#"{"tracer":"callTracer","tracerConfig":{"withLog":null}}"#).tracer == .callTracer(CallTracerOptions()))
        #expect(
            try config(#"{"tracer":"prestateTracer","tracerConfig":{"diffMode":true,"disableCode":true,"disableStorage":true}}"#).tracer
                == .prestateTracer(PrestateTracerOptions(diffMode: true, disableCode: true, disableStorage: true)))
        #expect(
            try config(#"{"tracer":"prestateTracer","tracerConfig":{"includeEmpty":true}}"#).tracer
                == .prestateTracer(PrestateTracerOptions(includeEmpty: true)))
        #expect(try config(#"{"tracer":"4byteTracer","tracerConfig":{}}"#).tracer == .fourByteTracer)
        #expect(try config(#"{"tracer":"noopTracer"}"#).tracer == .noopTracer)
        #expect(
            try config(#"{"tracer":"structLogger","enableMemory":true,"limit":5}"#).tracer
                == .structLogger(StructLogOptions(enableMemory: true, limit: 5)))
        // The struct logger's options beside another tracer are geth's, and apply to the struct logger only.
        #expect(try config(#"{"tracer":"noopTracer","disableStack":true}"#).tracer == .noopTracer)
        #expect(try config(#"{"tracer":"callTracer","timeout":"1.5s"}"#).timeout == .milliseconds(1500))
    }

    @Test func debugTraceCallParameters() throws {
        let block = try decode("debug_traceCall", "[\(Self.call)]")
        guard case .traceCall(let request, .latest, let config) = block else {
            Issue.record("\(block)")
            return
        }
        #expect(request.data == [0x12, 0x34, 0x56, 0x78])
        #expect(config == TraceConfig())
        let overrides = """
            [\(Self.call),"0x5",{"tracer":"callTracer","stateOverrides":{"0x0000000000000000000000000000000000001001":\
            {"balance":"0x10","nonce":"0x2","code":"0x00","state":{"0x\(String(repeating: "0", count: 63))1":\
            "0x\(String(repeating: "0", count: 63))2"}}},"blockOverrides":{"number":"0x10","time":"0x20","gasLimit":"0x30",\
            "feeRecipient":"0x00000000000000000000000000000000000000fe","prevRandao":"0x\(String(repeating: "1", count: 64))",\
            "baseFeePerGas":"0x7","blobBaseFee":"0x8","difficulty":"0x9"}}]
            """
        guard case .traceCall(_, .number(5), let full) = try decode("debug_traceCall", overrides) else {
            Issue.record("not a traceCall")
            return
        }
        #expect(full.tracer == .callTracer(CallTracerOptions()))
        let address = try #require(Address(bytes: try Hex.decode("0x0000000000000000000000000000000000001001")))
        #expect(full.stateOverrides[address] == AccountOverride(nonce: 2, code: [0], balance: UInt256(16), state: [UInt256(1): UInt256(2)]))
        #expect(full.blockOverrides?.number == 16 && full.blockOverrides?.time == 32 && full.blockOverrides?.gasLimit == 48)
        #expect(full.blockOverrides?.baseFeePerGas == UInt256(7) && full.blockOverrides?.blobBaseFee == UInt256(8))
        #expect(full.blockOverrides?.difficulty == UInt256(9))
        // Block traces take the same config.
        guard case .traceBlock(.number(1), let blockConfig) = try decode("debug_traceBlockByNumber", #"["0x1",{"tracer":"4byteTracer"}]"#)
        else {
            Issue.record("not a traceBlock")
            return
        }
        #expect(blockConfig.tracer == .fourByteTracer)
    }

    @Test func badConfigsAreRefused() throws {
        let cases: [(String, String)] = [
            (#"{"tracer":"jsTracer"}"#, "is not a tracer of this node"),
            (#"{"tracer":"{step: function() {}}"}"#, "JavaScript tracers are not supported"),
            (#"{"tracer":7}"#, "tracer"),
            (#"{"tracer":"callTracer","tracerConfig":{"onlyTopcall":true}}"#, "not an option of callTracer"),
            (#"{"tracer":"callTracer","tracerConfig":{"withLog":"yes"}}"#, "expected a boolean"),
            (#"{"tracer":"callTracer","tracerConfig":[]}"#, "expected an object"),
            (#"{"tracer":"prestateTracer","tracerConfig":{"diffMode":true,"includeEmpty":true}}"#, "cannot use diffMode with includeEmpty"),
            (#"{"tracer":"prestateTracer","tracerConfig":{"onlyTopCall":true}}"#, "not an option of prestateTracer"),
            (#"{"tracer":"noopTracer","tracerConfig":{"withLog":true}}"#, "takes no options"),
            (#"{"tracerConfig":{"withLog":true}}"#, "takes no options"),
            (#"{"enableMemory":"yes"}"#, "expected a boolean"),
            (#"{"limit":-1}"#, "limit"),
            (#"{"timeout":"forever"}"#, "duration"),
            (#"{"stateOverrides":{}}"#, "only debug_traceCall"),
            (#"{"blockOverrides":{}}"#, "only debug_traceCall"),
            ("[]", "expected an object"),
        ]
        for (json, words) in cases {
            let message = refusal("debug_traceTransaction", "[\(Self.hash),\(json)]") ?? "decoded"
            #expect(message.contains(words), "\(json): \(message)")
        }
        let callCases: [(String, String)] = [
            (#"[\#(Self.call),"latest",{"txIndex":"0x1"}]"#, "not supported"),
            (#"[\#(Self.call),"latest",{"stateOverrides":{"0x1234":{}}}]"#, "stateOverrides"),
            (#"[\#(Self.call),"latest",{"stateOverrides":{"0x0000000000000000000000000000000000001001":{"balance":"x"}}}]"#, "balance"),
            (#"[\#(Self.call),"latest",{"blockOverrides":{"number":"zz"}}]"#, "number"),
            (#"[\#(Self.call),"latest",{},1]"#, "too many arguments"),
            (#"[]"#, "missing value"),
            (#"[{"to":"0x12"}]"#, "invalid argument 0"),
            (#"[\#(Self.call),"nonsense"]"#, "invalid argument 1"),
        ]
        for (params, words) in callCases {
            let message = refusal("debug_traceCall", params) ?? "decoded"
            #expect(message.contains(words), "\(params): \(message)")
        }
        #expect(refusal("debug_traceBlockByHash", #"["0x1234",{}]"#) != nil)
        #expect(refusal("debug_traceBlockByNumber", #"["0x1",{"tracer":"nope"}]"#)?.contains("nope") == true)
    }
}
