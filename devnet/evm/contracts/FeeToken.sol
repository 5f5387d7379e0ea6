// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// A fee-on-transfer ERC-20 on OpenZeppelin's: every transfer between two holders sends 2% of the
/// amount to the treasury (its owner), so a recipient holds less than the amount it was sent.
contract FeeToken is ERC20 {
    address public immutable treasury;

    constructor() ERC20("Taxed Lantern", "TAX") {
        treasury = msg.sender;
    }

    function mint(address to, uint256 value) external {
        require(msg.sender == treasury, "TAX: not owner");
        _mint(to, value);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0) || from == treasury || to == treasury) {
            super._update(from, to, value);
            return;
        }
        uint256 fee = (value * 2) / 100;
        super._update(from, treasury, fee);
        super._update(from, to, value - fee);
    }
}
