import FuzzHarnesses

// libFuzzer calls this once per input; see FuzzHarnesses.FuzzHarness.abi and Fuzz/README.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzABI(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzHarness.fuzzOne(.abi, start, count)
}
