// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// An ERC-20 written before the standard settled, as MKR and USDT were: `name` and `symbol` are
/// bytes32 (MKR), `decimals` a uint256, and `transfer`, `transferFrom` and `approve` return nothing
/// (USDT), so a caller that expects `(bool)` back finds no return data.
contract LegacyToken {
    bytes32 public constant name = "Old Lantern Gold";
    bytes32 public constant symbol = "OLG";
    uint256 public constant decimals = 18;

    address public immutable owner;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor() {
        owner = msg.sender;
    }

    function mint(address to, uint256 value) external {
        require(msg.sender == owner, "OLG: not owner");
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function transfer(address to, uint256 value) external {
        _move(msg.sender, to, value);
    }

    function approve(address spender, uint256 value) external {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        require(allowance[from][msg.sender] >= value, "OLG: allowance");
        allowance[from][msg.sender] -= value;
        _move(from, to, value);
    }

    function _move(address from, address to, uint256 value) internal {
        require(balanceOf[from] >= value, "OLG: balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
