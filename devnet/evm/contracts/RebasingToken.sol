// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A rebasing ERC-20 (stETH-style): holders own shares, and `balanceOf` is shares times an index the
/// owner moves with `rebase`. A rebase changes every balance and emits no Transfer, so a balance summed
/// from Transfer logs is wrong: only `balanceOf` at a block says what a wallet holds.
contract RebasingToken {
    string public constant name = "Rebasing Lantern";
    string public constant symbol = "rLNT";
    uint8 public constant decimals = 18;
    uint256 private constant ONE = 1e18;

    address public immutable owner;
    uint256 public index = ONE;
    uint256 public totalShares;
    mapping(address => uint256) public sharesOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Rebased(uint256 index);

    constructor() {
        owner = msg.sender;
    }

    function totalSupply() external view returns (uint256) {
        return (totalShares * index) / ONE;
    }

    function balanceOf(address a) external view returns (uint256) {
        return (sharesOf[a] * index) / ONE;
    }

    function mint(address to, uint256 value) external {
        require(msg.sender == owner, "rLNT: not owner");
        uint256 s = (value * ONE) / index;
        sharesOf[to] += s;
        totalShares += s;
        emit Transfer(address(0), to, value);
    }

    function rebase(uint256 newIndex) external {
        require(msg.sender == owner, "rLNT: not owner");
        index = newIndex;
        emit Rebased(newIndex);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "rLNT: allowance");
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) internal {
        uint256 s = (value * ONE) / index;
        require(sharesOf[from] >= s, "rLNT: balance");
        sharesOf[from] -= s;
        sharesOf[to] += s;
        emit Transfer(from, to, value);
    }
}
