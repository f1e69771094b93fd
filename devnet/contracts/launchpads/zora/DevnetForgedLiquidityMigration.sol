// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";

/// @notice An attacker's contract for the adversarial tests: in one transaction it initialises a pool of its choice
/// (anyone may: v4 PoolManager.initialize is permissionless) with a launched coin's currencies, and emits a
/// `LiquidityMigrated` with the real signature (ICoin.sol) claiming the coin's pool moved there. Only the coin itself
/// emits the real event, so an indexer that trusted this one would buy on the attacker's pool.
contract DevnetForgedLiquidityMigration {
    event LiquidityMigrated(PoolKey fromPoolKey, bytes32 fromPoolKeyHash, PoolKey toPoolKey, bytes32 toPoolKeyHash);

    function forge(IPoolManager poolManager, PoolKey calldata from, PoolKey calldata to, uint160 sqrtPriceX96) external {
        poolManager.initialize(to, sqrtPriceX96);
        emit LiquidityMigrated(from, keccak256(abi.encode(from)), to, keccak256(abi.encode(to)));
    }
}
