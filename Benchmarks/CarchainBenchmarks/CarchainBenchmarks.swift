import Benchmark

/// One registration function per area; each lives in its own file in this folder.
let benchmarks: @Sendable () -> Void = {
    registerUInt256Benchmarks()
    registerKeccakBenchmarks()
    registerRLPBenchmarks()
    registerSecp256k1Benchmarks()
    registerTransactionBenchmarks()
    registerPrecompileBenchmarks()
    registerKZGBenchmarks()
    registerBLS12381Benchmarks()
    registerABIBenchmarks()
    registerEVMBenchmarks()
    registerChainBenchmarks()
    registerChainScaleBenchmarks()
    registerRPCBenchmarks()
    registerNodeBenchmarks()
    registerMiningLatencyBenchmarks()
    registerAppBenchmarks()
    registerTraceBenchmarks()
    registerForkBenchmarks()
    registerWebSocketBenchmarks()
    registerJSONBenchmarks()
    registerTestingBenchmarks()
}
