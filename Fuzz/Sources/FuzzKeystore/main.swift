import FuzzHarnesses

// libFuzzer calls this once per input; see FuzzHarnesses.FuzzHarness.keystore and Fuzz/README.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeystore(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzHarness.fuzzOne(.keystore, start, count)
}
