// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

/// OpenZeppelin's ERC-721 as it ships: the collection whose owner gives an operator approval
/// (setApprovalForAll) to another address, and takes one back.
contract Keys721 is ERC721 {
    address public immutable minter;
    uint256 public nextTokenId = 1;

    constructor() ERC721("Lantern Keys", "KEY") {
        minter = msg.sender;
    }

    function mint(address to) external returns (uint256 id) {
        require(msg.sender == minter, "KEY: not minter");
        id = nextTokenId++;
        _mint(to, id);
    }

    /// Zero when unminted or burned, as Lights721 and Linked721 answer (the seed's checks read all alike).
    function ownerOfRaw(uint256 id) external view returns (address) {
        return _ownerOf(id);
    }
}
