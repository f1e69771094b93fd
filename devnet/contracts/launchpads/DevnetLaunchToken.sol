// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "solmate/src/tokens/ERC20.sol";

/// @notice The ERC-20 every devnet launchpad creates: fixed supply, 18 decimals, minted once to the launchpad,
/// which puts it into the pool. Nothing else: real launchpad tokens add metadata, votes and so on, which prebuy never reads.
contract DevnetLaunchToken is ERC20 {
    constructor(string memory name_, string memory symbol_, uint256 supply, address recipient) ERC20(name_, symbol_, 18) {
        _mint(recipient, supply);
    }
}
