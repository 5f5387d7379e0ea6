// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// ERC-721 whose metadata lives off chain: each token's URI is set at mint (http(s)://, ipfs://,
/// ar://, anything). Only what Lantern's NFT indexing reads: Transfer, ownerOf (ownerOfRaw: zero when
/// unminted, as Lights721, so the seed's checks read both alike), tokenURI, name, symbol.
contract Linked721 {
    string public name;
    string public symbol;
    address public owner;
    uint256 public nextTokenId = 1;

    mapping(uint256 => address) public ownerOfRaw;
    mapping(address => uint256) public balanceOf;
    mapping(uint256 => string) private uris;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x80ac58cd || id == 0x5b5e139f;
    }

    function mint(address to, string calldata uri) external returns (uint256 id) {
        require(msg.sender == owner, "721: not owner");
        id = nextTokenId++;
        ownerOfRaw[id] = to;
        balanceOf[to] += 1;
        uris[id] = uri;
        emit Transfer(address(0), to, id);
    }

    function setTokenURI(uint256 id, string calldata uri) external {
        require(msg.sender == owner, "721: not owner");
        uris[id] = uri;
    }

    function tokenURI(uint256 id) external view returns (string memory) {
        require(ownerOfRaw[id] != address(0), "721: nonexistent token");
        return uris[id];
    }

    function ownerOf(uint256 id) external view returns (address o) {
        o = ownerOfRaw[id];
        require(o != address(0), "721: nonexistent token");
    }
}
