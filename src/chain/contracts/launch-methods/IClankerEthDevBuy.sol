// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";

/// @notice The extension data of Clanker's ETH dev buy (clanker-devco/v4-contracts
///         `src/extensions/interfaces/IClankerUniv4EthDevBuy.sol`, `Univ4EthDevBuyExtensionData`).
interface IClankerEthDevBuy {
    struct Univ4EthDevBuyExtensionData {
        /// @dev Only for a paired token other than WETH (ignored for WETH pairs).
        PoolKey pairedTokenPoolKey;
        uint128 pairedTokenAmountOutMinimum;
        address recipient;
    }
}
