import FuzzHarnesses

// libFuzzer calls this once per input; see FuzzHarnesses.FuzzHarness.node and Fuzz/README.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNode(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzHarness.fuzzOne(.node, start, count)
}
