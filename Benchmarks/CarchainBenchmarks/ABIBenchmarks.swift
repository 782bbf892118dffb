import Benchmark
import EthereumABI
import EthereumPrimitives

/// ABI encoding and decoding of CarChain's busiest call, `rentCar(string,string)` (4 + 192 bytes), of
/// an ERC-20 `transfer(address,uint256)` (static words only), and of a nested dynamic value
/// (`(uint256,string)[]` of 16 elements), plus signature parsing and revert-reason decoding.
func registerABIBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        scalingFactor: .kilo,
        maxDuration: .seconds(2)
    )
    let rentTypes: [ABIType] = [.string, .string]
    let rentValues: [ABIValue] = [.string("6789BBB"), .string("O6fLnMnVXAUWmxdIYatVNzaE31i1")]
    let rentData = (try? ABIEncoder.encode(rentValues, as: rentTypes)) ?? []
    let transferTypes: [ABIType] = [.address, .uint256]
    let transferValues: [ABIValue] = [.address(Address(bytes: (0..<20).map { UInt8($0) }) ?? .zero), .unsigned(1_000_000_000)]
    let transferData = (try? ABIEncoder.encode(transferValues, as: transferTypes)) ?? []
    let listType = ABIType.array(.tuple([.uint256, .string]), count: nil)
    let listValue = ABIValue.array((0..<16).map { i in .tuple([.unsigned(UInt64(i) * 1_000_003), .string("car number \(i)")]) })
    let listData = (try? ABIEncoder.encode(listValue, as: listType)) ?? []
    let revert = RevertReason.encodeError("user already renting a car")

    Benchmark("ABI encode rentCar(string,string) args", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? ABIEncoder.encode(rentValues, as: rentTypes))
        }
    }

    Benchmark("ABI decode rentCar(string,string) args", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? ABIDecoder.decode(rentTypes, from: rentData))
        }
    }

    Benchmark("ABI encode transfer(address,uint256) args", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? ABIEncoder.encode(transferValues, as: transferTypes))
        }
    }

    Benchmark("ABI decode transfer(address,uint256) args", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? ABIDecoder.decode(transferTypes, from: transferData))
        }
    }

    Benchmark("ABI encode (uint256,string)[16]", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? ABIEncoder.encode(listValue, as: listType))
        }
    }

    Benchmark("ABI decode (uint256,string)[16]", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? ABIDecoder.decode(listType, from: listData))
        }
    }

    Benchmark("ABI parse signature + selector", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole((try? ABIFunction(signature: "function rentCar(string plate, string userId)"))?.selector)
        }
    }

    Benchmark("ABI decode revert reason", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(RevertReason(data: revert))
        }
    }
}
