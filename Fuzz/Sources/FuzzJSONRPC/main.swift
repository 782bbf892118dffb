import FuzzHarnesses

// libFuzzer calls this once per input; see FuzzHarnesses.FuzzHarness.jsonrpc and Fuzz/README.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONRPC(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzHarness.fuzzOne(.jsonrpc, start, count)
}
