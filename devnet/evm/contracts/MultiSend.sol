// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Splits the ETH sent with the call among recipients: each payment is an internal call with value.
contract MultiSend {
    event Sent(address indexed to, uint256 value);

    function send(address[] calldata recipients, uint256[] calldata amounts) external payable {
        require(recipients.length == amounts.length, "MultiSend: length mismatch");
        uint256 total;
        for (uint256 i = 0; i < recipients.length; i++) {
            total += amounts[i];
            (bool ok, ) = recipients[i].call{value: amounts[i]}("");
            require(ok, "MultiSend: payment failed");
            emit Sent(recipients[i], amounts[i]);
        }
        require(total == msg.value, "MultiSend: value mismatch");
    }
}
