// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// RFC 4648 base64 (with padding) and decimal formatting, for on-chain metadata.
library Base64 {
    bytes internal constant TABLE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    function encode(bytes memory data) internal pure returns (string memory) {
        if (data.length == 0) return "";
        bytes memory out = new bytes(4 * ((data.length + 2) / 3));
        uint256 j = 0;
        for (uint256 i = 0; i < data.length; i += 3) {
            uint256 a = uint8(data[i]);
            uint256 b = i + 1 < data.length ? uint8(data[i + 1]) : 0;
            uint256 c = i + 2 < data.length ? uint8(data[i + 2]) : 0;
            uint256 triple = (a << 16) | (b << 8) | c;
            out[j++] = TABLE[(triple >> 18) & 63];
            out[j++] = TABLE[(triple >> 12) & 63];
            out[j++] = i + 1 < data.length ? TABLE[(triple >> 6) & 63] : bytes1("=");
            out[j++] = i + 2 < data.length ? TABLE[triple & 63] : bytes1("=");
        }
        return string(out);
    }

    function toString(uint256 value) internal pure returns (string memory) {
        if (value == 0) return "0";
        uint256 digits;
        for (uint256 v = value; v != 0; v /= 10) digits++;
        bytes memory buf = new bytes(digits);
        while (value != 0) {
            digits--;
            buf[digits] = bytes1(uint8(48 + (value % 10)));
            value /= 10;
        }
        return string(buf);
    }
}
