// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice What a wallet holds, read in one eth_call: never deployed, placed by an eth_call state override
/// (lib/sources/evm-node/token-reader.ts). It makes, per token, the view calls Lantern would otherwise send
/// through Multicall3's aggregate3, in the same order and the same way (a CALL with all but 1/64 of the
/// gas left, value 0, every call allowed to fail), but it is told them in 21 bytes per token rather than
/// ~5 ABI-encoded calls, and answers each call's raw return data with a 5-byte head rather than aggregate3's
/// 4 words of offsets, flag and length.
///
/// Calldata (no selector): the wallet (20 bytes), then per token its address (20 bytes) and a mask (1 byte)
/// of the calls to make, in this order: bit 0 balanceOf(wallet), 1 totalSupply(), 2 name(), 3 symbol(),
/// 4 decimals().
/// Answer (raw bytes, no ABI wrapping): per call made, in order, 1 byte success (0 or 1), 4 bytes the return
/// data's length (big-endian), then the return data as the token gave it (reverted: its revert data).
contract TokenReader {
    fallback() external {
        assembly {
            let size := calldatasize()
            if or(lt(size, 20), mod(sub(size, 20), 21)) { revert(0, 0) }
            let wallet := shr(96, calldataload(0))
            // The answer is written from 0x80 on; 0x00-0x23 holds the call data of each call.
            let out := 0x80
            let p := out
            for { let i := 20 } lt(i, size) { i := add(i, 21) } {
                let w := calldataload(i)
                let token := shr(96, w)
                let mask := byte(20, w)
                for { let k := 0 } lt(k, 5) { k := add(k, 1) } {
                    if and(mask, shl(k, 1)) {
                        // balanceOf(address), totalSupply(), name(), symbol(), decimals()
                        let selector := 0x313ce567
                        switch k
                        case 0 { selector := 0x70a08231 }
                        case 1 { selector := 0x18160ddd }
                        case 2 { selector := 0x06fdde03 }
                        case 3 { selector := 0x95d89b41 }
                        mstore(0, shl(224, selector))
                        let inSize := 4
                        if iszero(k) {
                            mstore(4, wallet)
                            inSize := 36
                        }
                        let ok := call(gas(), token, 0, 0, inSize, 0, 0)
                        let len := returndatasize()
                        mstore8(p, ok)
                        mstore(add(p, 1), shl(224, len))
                        returndatacopy(add(p, 5), 0, len)
                        p := add(p, add(5, len))
                    }
                }
            }
            return(out, sub(p, out))
        }
    }
}
