// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// Multicall3's aggregate3, which viem batches reads through (`batch: { multicall: true }`) at the
// chain's multicall3 address; a plain anvil has no contract there.
contract LocalMulticall3 {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = calls[i].target.call(calls[i].callData);
            require(ok || calls[i].allowFailure, "Multicall3: call failed");
            results[i] = Result(ok, ret);
        }
    }
}
