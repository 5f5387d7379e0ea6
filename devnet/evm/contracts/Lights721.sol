// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./Base64.sol";

interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data)
        external returns (bytes4);
}

/// ERC-721 whose metadata lives on chain: tokenURI is data:application/json;base64 JSON whose
/// `image` is a data:image/svg+xml;base64 SVG. The owner mints; holders burn.
contract Lights721 {
    string public name;
    string public symbol;
    address public owner;
    uint256 public nextTokenId = 1;

    mapping(uint256 => address) public ownerOfRaw;
    mapping(address => uint256) public balanceOf;
    mapping(uint256 => address) public getApproved;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x80ac58cd || id == 0x5b5e139f;
    }

    function ownerOf(uint256 tokenId) public view returns (address) {
        address o = ownerOfRaw[tokenId];
        require(o != address(0), "721: nonexistent token");
        return o;
    }

    function approve(address to, uint256 tokenId) external {
        address o = ownerOf(tokenId);
        require(msg.sender == o || isApprovedForAll[o][msg.sender], "721: not authorized");
        getApproved[tokenId] = to;
        emit Approval(o, to, tokenId);
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        address o = ownerOf(tokenId);
        require(o == from, "721: wrong from");
        require(to != address(0), "721: transfer to zero");
        require(
            msg.sender == o || getApproved[tokenId] == msg.sender || isApprovedForAll[o][msg.sender],
            "721: not authorized"
        );
        delete getApproved[tokenId];
        balanceOf[from] -= 1;
        balanceOf[to] += 1;
        ownerOfRaw[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        _checkReceiver(from, to, tokenId, data);
    }

    function mint(address to) external returns (uint256 tokenId) {
        require(msg.sender == owner, "721: not owner");
        require(to != address(0), "721: mint to zero");
        tokenId = nextTokenId++;
        balanceOf[to] += 1;
        ownerOfRaw[tokenId] = to;
        emit Transfer(address(0), to, tokenId);
        _checkReceiver(address(0), to, tokenId, "");
    }

    function burn(uint256 tokenId) external {
        address o = ownerOf(tokenId);
        require(msg.sender == o || isApprovedForAll[o][msg.sender], "721: not authorized");
        delete getApproved[tokenId];
        balanceOf[o] -= 1;
        delete ownerOfRaw[tokenId];
        emit Transfer(o, address(0), tokenId);
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        string memory id = Base64.toString(tokenId);
        string memory hue = Base64.toString((tokenId * 47) % 360);
        string memory svg = string.concat(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">',
            '<rect width="100" height="100" fill="hsl(', hue, ',60%,20%)"/>',
            '<circle cx="50" cy="45" r="22" fill="hsl(', hue, ',90%,65%)"/>',
            '<text x="50" y="88" font-size="12" text-anchor="middle" fill="#fff">#', id, "</text></svg>"
        );
        string memory json = string.concat(
            '{"name":"Lantern Light #', id,
            '","description":"An on-chain light from the Lantern devnet.","external_url":"https://lantern.example/lights/', id,
            '","image":"data:image/svg+xml;base64,', Base64.encode(bytes(svg)),
            '","attributes":[{"trait_type":"Hue","value":', hue,
            '},{"trait_type":"Edition","value":"', tokenId % 2 == 0 ? "Even" : "Odd", '"}]}'
        );
        return string.concat("data:application/json;base64,", Base64.encode(bytes(json)));
    }

    function _checkReceiver(address from, address to, uint256 tokenId, bytes memory data) internal {
        if (to.code.length == 0) return;
        bytes4 ret = IERC721Receiver(to).onERC721Received(msg.sender, from, tokenId, data);
        require(ret == IERC721Receiver.onERC721Received.selector, "721: receiver refused");
    }
}
