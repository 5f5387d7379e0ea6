// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./Base64.sol";

interface IERC1155Receiver {
    function onERC1155Received(address operator, address from, uint256 id, uint256 value, bytes calldata data)
        external returns (bytes4);
    function onERC1155BatchReceived(
        address operator, address from, uint256[] calldata ids, uint256[] calldata values, bytes calldata data
    ) external returns (bytes4);
}

/// ERC-1155 with on-chain JSON metadata per id. The owner mints; holders burn.
contract Items1155 {
    string public name;
    string public symbol;
    address public owner;

    mapping(uint256 => mapping(address => uint256)) public balanceOf;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(
        address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values
    );
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);
    event URI(string value, uint256 indexed id);

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0xd9b67a26 || id == 0x0e89341c;
    }

    function balanceOfBatch(address[] calldata accounts, uint256[] calldata ids)
        external view returns (uint256[] memory out)
    {
        require(accounts.length == ids.length, "1155: length mismatch");
        out = new uint256[](accounts.length);
        for (uint256 i = 0; i < accounts.length; i++) out[i] = balanceOf[ids[i]][accounts[i]];
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata data) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "1155: not authorized");
        require(to != address(0), "1155: transfer to zero");
        _debit(from, id, value);
        balanceOf[id][to] += value;
        emit TransferSingle(msg.sender, from, to, id, value);
        _checkSingle(from, to, id, value, data);
    }

    function safeBatchTransferFrom(
        address from, address to, uint256[] calldata ids, uint256[] calldata values, bytes calldata data
    ) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "1155: not authorized");
        require(to != address(0), "1155: transfer to zero");
        require(ids.length == values.length, "1155: length mismatch");
        for (uint256 i = 0; i < ids.length; i++) {
            _debit(from, ids[i], values[i]);
            balanceOf[ids[i]][to] += values[i];
        }
        emit TransferBatch(msg.sender, from, to, ids, values);
        _checkBatch(from, to, ids, values, data);
    }

    function mint(address to, uint256 id, uint256 value) external {
        require(msg.sender == owner, "1155: not owner");
        balanceOf[id][to] += value;
        emit TransferSingle(msg.sender, address(0), to, id, value);
        _checkSingle(address(0), to, id, value, "");
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata values) external {
        require(msg.sender == owner, "1155: not owner");
        require(ids.length == values.length, "1155: length mismatch");
        for (uint256 i = 0; i < ids.length; i++) balanceOf[ids[i]][to] += values[i];
        emit TransferBatch(msg.sender, address(0), to, ids, values);
        _checkBatch(address(0), to, ids, values, "");
    }

    function burn(uint256 id, uint256 value) external {
        _debit(msg.sender, id, value);
        emit TransferSingle(msg.sender, msg.sender, address(0), id, value);
    }

    function burnBatch(uint256[] calldata ids, uint256[] calldata values) external {
        require(ids.length == values.length, "1155: length mismatch");
        for (uint256 i = 0; i < ids.length; i++) _debit(msg.sender, ids[i], values[i]);
        emit TransferBatch(msg.sender, msg.sender, address(0), ids, values);
    }

    function uri(uint256 id) external pure returns (string memory) {
        string[5] memory names = ["Lamp Oil", "Wick", "Glass Chimney", "Rare Flame", "Keeper Badge"];
        require(id >= 1 && id <= 5, "1155: unknown id");
        string memory sid = Base64.toString(id);
        string memory svg = string.concat(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="#1b1f2a"/>',
            '<text x="50" y="55" font-size="10" text-anchor="middle" fill="#f5c451">', names[id - 1], "</text></svg>"
        );
        string memory json = string.concat(
            '{"name":"', names[id - 1], '","description":"Lantern item #', sid,
            '","image":"data:image/svg+xml;base64,', Base64.encode(bytes(svg)),
            '","attributes":[{"trait_type":"Item","value":', sid, "}]}"
        );
        return string.concat("data:application/json;base64,", Base64.encode(bytes(json)));
    }

    function _debit(address from, uint256 id, uint256 value) internal {
        require(balanceOf[id][from] >= value, "1155: balance");
        balanceOf[id][from] -= value;
    }

    function _checkSingle(address from, address to, uint256 id, uint256 value, bytes memory data) internal {
        if (to.code.length == 0) return;
        bytes4 ret = IERC1155Receiver(to).onERC1155Received(msg.sender, from, id, value, data);
        require(ret == IERC1155Receiver.onERC1155Received.selector, "1155: receiver refused");
    }

    function _checkBatch(address from, address to, uint256[] calldata ids, uint256[] calldata values, bytes memory data)
        internal
    {
        if (to.code.length == 0) return;
        bytes4 ret = IERC1155Receiver(to).onERC1155BatchReceived(msg.sender, from, ids, values, data);
        require(ret == IERC1155Receiver.onERC1155BatchReceived.selector, "1155: receiver refused");
    }
}
