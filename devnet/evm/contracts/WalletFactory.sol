// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./SmartWallet.sol";

/// Deploys SmartWallets with CREATE2, so a wallet's address is known before it exists
/// (EIP-6492 sign-in of a not-yet-deployed wallet uses createWallet as the factory call).
contract WalletFactory {
    event WalletCreated(address indexed wallet, address indexed owner, bytes32 salt);

    function createWallet(address owner, bytes32 salt) external returns (address wallet) {
        wallet = address(new SmartWallet{salt: keccak256(abi.encode(owner, salt))}(owner));
        emit WalletCreated(wallet, owner, salt);
    }

    function walletAddress(address owner, bytes32 salt) external view returns (address) {
        bytes32 codeHash = keccak256(abi.encodePacked(type(SmartWallet).creationCode, abi.encode(owner)));
        bytes32 h = keccak256(
            abi.encodePacked(bytes1(0xff), address(this), keccak256(abi.encode(owner, salt)), codeHash)
        );
        return address(uint160(uint256(h)));
    }
}
