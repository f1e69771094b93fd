// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {DevnetLaunchToken} from "../DevnetLaunchToken.sol";

/// @notice A devnet Zora coin: the launch token plus the two getters of the real coin that a coin paired with it is
/// routed through (ourzora/zora-protocol packages/coins/src/interfaces/ICoin.sol: `getPoolKey()`, `currency()`), set
/// once by the factory after its pool is initialised.
contract DevnetZoraCoin is DevnetLaunchToken {
    address public immutable factory;
    address public currency;
    PoolKey internal poolKey;

    error OnlyFactory();

    constructor(string memory name_, string memory symbol_, uint256 supply, address recipient)
        DevnetLaunchToken(name_, symbol_, supply, recipient)
    {
        factory = msg.sender;
    }

    function setPool(PoolKey calldata key, address currency_) external {
        if (msg.sender != factory) revert OnlyFactory();
        poolKey = key;
        currency = currency_;
    }

    function getPoolKey() external view returns (PoolKey memory) {
        return poolKey;
    }
}
