import FuzzHarnesses

// libFuzzer calls this once per input; see FuzzHarnesses.FuzzHarness.auth and Fuzz/README.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAuth(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzHarness.fuzzOne(.auth, start, count)
}
