// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A token that moves and logs like an ERC-20 but cannot say what anyone holds: `balanceOf` always
/// reverts, and `decimals` answers 300, which no uint8 holds (it lies). An explorer must show it
/// safely, never fail a wallet's page over it.
contract BrokenToken {
    string public constant name = "Broken Balance";
    string public constant symbol = "BROKEN";
    address public immutable owner;
    uint256 public totalSupply;
    mapping(address => uint256) private held;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor() {
        owner = msg.sender;
    }

    function decimals() external pure returns (uint256) {
        return 300;
    }

    function balanceOf(address) external pure returns (uint256) {
        revert("BROKEN: balanceOf is disabled");
    }

    function mint(address to, uint256 value) external {
        require(msg.sender == owner, "BROKEN: not owner");
        totalSupply += value;
        held[to] += value;
        emit Transfer(address(0), to, value);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        require(held[msg.sender] >= value, "BROKEN: balance");
        held[msg.sender] -= value;
        held[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}
