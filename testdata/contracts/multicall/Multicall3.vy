# pragma version ~=0.4.3
"""
@title Multicall3's batching entry point, written for carchain's tests
@notice `aggregate3`, `getEthBalance` and `getBlockNumber` with Multicall3's ABI (the same selectors) and
        semantics: each call runs from this contract; a failed call with `allowFailure` false reverts the whole
        batch with "Multicall3: call failed". Bounded as Vyper needs: at most 64 calls, 4,096 bytes of calldata
        and of return data per call (longer return data is cut). Compiled by the venv's vyper at test time
        (Tests/EthereumContractsTests); not deployed anywhere.
"""

struct Call3:
    target: address
    allowFailure: bool
    callData: Bytes[4096]


struct Result:
    success: bool
    returnData: Bytes[4096]


@external
@payable
def aggregate3(calls: DynArray[Call3, 64]) -> DynArray[Result, 64]:
    results: DynArray[Result, 64] = []
    for c: Call3 in calls:
        success: bool = False
        data: Bytes[4096] = b""
        success, data = raw_call(c.target, c.callData, max_outsize=4096, revert_on_failure=False)
        assert success or c.allowFailure, "Multicall3: call failed"
        results.append(Result(success=success, returnData=data))
    return results


@external
@view
def getEthBalance(addr: address) -> uint256:
    return addr.balance


@external
@view
def getBlockNumber() -> uint256:
    return block.number
