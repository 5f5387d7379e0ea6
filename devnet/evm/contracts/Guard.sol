// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Something to fail against: poke reverts with a reason when the value is too large.
contract Guard {
    uint256 public last;
    event Poked(address indexed by, uint256 value);

    function poke(uint256 value) external {
        require(value < 100, "Guard: value too large");
        last = value;
        emit Poked(msg.sender, value);
    }
}
