import FuzzHarnesses

// libFuzzer calls this once per input; see FuzzHarnesses.FuzzHarness.transaction and Fuzz/README.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransaction(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzHarness.fuzzOne(.transaction, start, count)
}
