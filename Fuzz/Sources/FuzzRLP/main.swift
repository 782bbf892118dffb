import FuzzHarnesses

// libFuzzer calls this once per input; see FuzzHarnesses.FuzzHarness.rlp and Fuzz/README.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRLP(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzHarness.fuzzOne(.rlp, start, count)
}
