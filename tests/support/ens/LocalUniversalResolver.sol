// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IRegistry {
    function resolver(bytes32 node) external view returns (address);
}

interface INameResolver {
    function name(bytes32 node) external view returns (string memory);
}

interface IAddrResolver {
    function addr(bytes32 node) external view returns (address payable);
}

// The two entry points of ENS's Universal Resolver that viem calls (resolveWithGateways,
// reverseWithGateways), with their errors, answered from the ENS registry given at deployment and the
// resolvers it names. The registry, resolver and reverse registrar are ENS's own published contracts
// (@ensdomains/ens, @ensdomains/resolver); the Universal Resolver is not in those packages, so this one
// does its lookups: exact-name resolvers only (no ENSIP-10 wildcards, no CCIP-Read), coin type 60 only,
// and a primary name counts only when the name resolves back to the address (ENSIP-19's check).
contract LocalUniversalResolver {
    error ResolverNotFound(bytes name);
    error ResolverError(bytes errorData);
    error ReverseAddressMismatch(string primary, bytes primaryAddress);
    error UnsupportedResolverProfile(bytes4 selector);
    error DNSDecodingFailed(bytes dns);

    // namehash("addr.reverse")
    bytes32 private constant ADDR_REVERSE_NODE = 0x91d1777781884d03a6757a803996e38de2a42967fb37eeaca72729271025a9e2;

    IRegistry public immutable registry;

    constructor(IRegistry registry_) {
        registry = registry_;
    }

    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] calldata) external view returns (bytes memory, address) {
        bytes32 node = dnsNamehash(name, 0);
        address resolver = registry.resolver(node);
        if (resolver == address(0)) revert ResolverNotFound(name);
        (bool ok, bytes memory result) = resolver.staticcall(data);
        if (!ok) revert ResolverError(result);
        return (result, resolver);
    }

    function reverseWithGateways(bytes calldata lookupAddress, uint256 coinType, string[] calldata)
        external
        view
        returns (string memory primary, address resolver, address reverseResolver)
    {
        if (coinType != 60 || lookupAddress.length != 20) revert UnsupportedResolverProfile(IAddrResolver.addr.selector);
        bytes32 reverseNode = keccak256(abi.encodePacked(ADDR_REVERSE_NODE, keccak256(lowerHex(lookupAddress))));
        reverseResolver = registry.resolver(reverseNode);
        if (reverseResolver == address(0)) return ("", address(0), address(0));
        primary = INameResolver(reverseResolver).name(reverseNode);
        if (bytes(primary).length == 0) return ("", address(0), reverseResolver);
        bytes32 node = textNamehash(bytes(primary));
        resolver = registry.resolver(node);
        if (resolver == address(0)) revert ResolverNotFound(bytes(primary));
        address forward = IAddrResolver(resolver).addr(node);
        if (forward != address(bytes20(lookupAddress))) revert ReverseAddressMismatch(primary, abi.encodePacked(forward));
    }

    /// namehash of a DNS wire-format name (length-prefixed labels, zero-terminated).
    function dnsNamehash(bytes calldata name, uint256 offset) private pure returns (bytes32) {
        if (offset >= name.length) revert DNSDecodingFailed(name);
        uint256 len = uint8(name[offset]);
        if (len == 0) return bytes32(0);
        if (offset + 1 + len > name.length) revert DNSDecodingFailed(name);
        bytes32 label = keccak256(name[offset + 1:offset + 1 + len]);
        return keccak256(abi.encodePacked(dnsNamehash(name, offset + 1 + len), label));
    }

    /// namehash of a dotted name (`bob.eth`).
    function textNamehash(bytes memory name) private pure returns (bytes32 node) {
        uint256 end = name.length;
        for (uint256 i = name.length; i > 0; i--) {
            if (name[i - 1] == ".") {
                node = keccak256(abi.encodePacked(node, keccak256(slice(name, i, end))));
                end = i - 1;
            }
        }
        node = keccak256(abi.encodePacked(node, keccak256(slice(name, 0, end))));
    }

    function slice(bytes memory b, uint256 from, uint256 to) private pure returns (bytes memory out) {
        out = new bytes(to - from);
        for (uint256 i = from; i < to; i++) out[i - from] = b[i];
    }

    function lowerHex(bytes calldata b) private pure returns (bytes memory out) {
        bytes16 digits = "0123456789abcdef";
        out = new bytes(b.length * 2);
        for (uint256 i = 0; i < b.length; i++) {
            out[2 * i] = digits[uint8(b[i]) >> 4];
            out[2 * i + 1] = digits[uint8(b[i]) & 0x0f];
        }
    }
}
