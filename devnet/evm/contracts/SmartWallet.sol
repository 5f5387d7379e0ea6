// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A one-owner contract wallet.
///
/// EIP-1271: isValidSignature(hash, signature) returns 0x1626ba7e when `signature` (65 bytes r,s,v)
/// recovers, by plain ecrecover over `hash` exactly as given (no extra prefixing), to the owner EOA;
/// otherwise 0xffffffff. For Sign-In with Ethereum, viem's verifyMessage / verifySiweMessage pass
/// hashMessage(message) (the EIP-191 "\x19Ethereum Signed Message:\n" + len hash), so the owner signs
/// the SIWE message with a normal personal_sign (signMessage) and the wallet accepts it.
contract SmartWallet {
    address public owner;

    event Executed(address indexed to, uint256 value, bytes data);
    event Received(address indexed from, uint256 value);

    constructor(address owner_) {
        owner = owner_;
    }

    receive() external payable {
        emit Received(msg.sender, msg.value);
    }

    function execute(address to, uint256 value, bytes calldata data) external returns (bytes memory) {
        require(msg.sender == owner, "Wallet: not owner");
        (bool ok, bytes memory ret) = to.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        emit Executed(to, value, data);
        return ret;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        // Reject high-s signatures (malleability), as EIP-2 does for transactions.
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) return 0xffffffff;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x150b7a02 || id == 0x4e2312e0;
    }

    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return 0x150b7a02;
    }

    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external pure returns (bytes4) {
        return 0xf23a6e61;
    }

    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external pure returns (bytes4)
    {
        return 0xbc197c81;
    }
}
