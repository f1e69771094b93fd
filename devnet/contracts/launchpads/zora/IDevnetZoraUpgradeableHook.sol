// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";

/// @notice ourzora/zora-protocol packages/coins/src/interfaces/IUpgradeableV4Hook.sol (at
/// 5f2aebad34f77990345b2a77f9a1170e39e7b1dc): the source side and the destination side of a liquidity migration, with
/// the real signatures and structs.
struct BurnedPosition {
    int24 tickLower;
    int24 tickUpper;
    uint128 amount0Received;
    uint128 amount1Received;
}

interface IDevnetZoraUpgradeableHook {
    function migrateLiquidity(address newHook, PoolKey memory poolKey, bytes calldata additionalData) external returns (PoolKey memory newPoolKey);

    function initializeFromMigrationWithUpdateableFee(
        PoolKey calldata poolKey,
        address coin,
        uint160 sqrtPriceX96,
        BurnedPosition[] calldata migratedLiquidity,
        bytes calldata additionalData
    ) external returns (uint24 fee, int24 tickSpacing);

    error InvalidNewHook(address newHook);
    error UpgradePathNotRegistered(address oldHook, address newHook);
}

/// @notice What the devnet Zora factory does for a hook migrating a pool it launched: the devnet factory, not the hook,
/// owns the launch liquidity (DevnetLaunchpadBase adds it), so the old hook asks it to burn that position (inside the
/// hook's unlock) and send what it returns to the new hook. The real hook owns its positions and burns them itself
/// (V4Liquidity.lockAndMigrate).
interface IDevnetZoraLiquidityHolder {
    function burnLaunchLiquidity(PoolKey calldata key, address to) external returns (BurnedPosition memory burned);
}
