// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20 {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// A swap at a fixed rate: 1 unit of tokenA (6 decimals) = 2 units of tokenB (18 decimals).
/// The caller sends one token and receives the other in the same transaction.
contract FixedRatePool {
    IERC20 public immutable tokenA;
    IERC20 public immutable tokenB;
    uint256 public constant B_PER_A = 2e12; // 2 * 10^(18-6)

    event Swap(address indexed trader, address indexed tokenIn, uint256 amountIn, uint256 amountOut);

    constructor(IERC20 a, IERC20 b) {
        tokenA = a;
        tokenB = b;
    }

    function swapAForB(uint256 amountIn, uint256 minOut) external returns (uint256 amountOut) {
        amountOut = amountIn * B_PER_A;
        require(amountOut >= minOut, "Pool: slippage");
        require(tokenA.transferFrom(msg.sender, address(this), amountIn), "Pool: pull failed");
        require(tokenB.transfer(msg.sender, amountOut), "Pool: push failed");
        emit Swap(msg.sender, address(tokenA), amountIn, amountOut);
    }

    function swapBForA(uint256 amountIn, uint256 minOut) external returns (uint256 amountOut) {
        amountOut = amountIn / B_PER_A;
        require(amountOut > 0 && amountOut >= minOut, "Pool: slippage");
        require(tokenB.transferFrom(msg.sender, address(this), amountIn), "Pool: pull failed");
        require(tokenA.transfer(msg.sender, amountOut), "Pool: push failed");
        emit Swap(msg.sender, address(tokenB), amountIn, amountOut);
    }
}
