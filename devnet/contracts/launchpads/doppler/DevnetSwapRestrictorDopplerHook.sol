// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";

/// @notice Devnet copy of Doppler's SwapRestrictorDopplerHook (whetstoneresearch/doppler
/// src/dopplerHooks/SwapRestrictorDopplerHook.sol), a plugin of the pool's hook (DevnetDopplerHookInitializer): at
/// initialization it gives each approved address an amount it may buy (`abi.encode(address[] approved, uint256
/// maxAmount)`); on every buy of the asset it requires the swap's `sender` (the PoolManager's caller: a router, not the
/// buyer) to have that much left, and reverts InsufficientAmountLeft otherwise. Same getters, events and error.
contract DevnetSwapRestrictorDopplerHook {
    address public immutable initializer;

    mapping(PoolId poolId => bool isToken0) public isAssetToken0;
    mapping(PoolId poolId => mapping(address sender => uint256 amountLeft)) public amountLeftOf;

    event UpdatedAmountLeft(PoolId indexed poolId, address indexed sender, uint256 amountLeft);

    error SenderNotInitializer();
    error InsufficientAmountLeft(PoolId poolId, address sender, uint256 amountRequested, uint256 amountLeft);

    constructor(address initializer_) {
        initializer = initializer_;
    }

    modifier onlyInitializer() {
        if (msg.sender != initializer) revert SenderNotInitializer();
        _;
    }

    function onInitialization(address asset, PoolKey calldata key, bytes calldata data) external onlyInitializer {
        (address[] memory approved, uint256 maxAmount) = abi.decode(data, (address[], uint256));
        PoolId poolId = key.toId();
        isAssetToken0[poolId] = Currency.unwrap(key.currency0) == asset;
        for (uint256 i = 0; i < approved.length; i++) {
            amountLeftOf[poolId][approved[i]] = maxAmount;
            emit UpdatedAmountLeft(poolId, approved[i], maxAmount);
        }
    }

    function onSwap(address sender, PoolKey calldata key, SwapParams calldata params, BalanceDelta balanceDelta, bytes calldata)
        external
        onlyInitializer
        returns (Currency, int128)
    {
        bool isToken0 = isAssetToken0[key.toId()];
        // The asset is being bought.
        if (params.zeroForOne != isToken0) {
            uint256 amountRequested = isToken0 ? uint128(balanceDelta.amount0()) : uint128(balanceDelta.amount1());
            PoolId poolId = key.toId();
            if (amountLeftOf[poolId][sender] < amountRequested) {
                revert InsufficientAmountLeft(poolId, sender, amountRequested, amountLeftOf[poolId][sender]);
            }
            amountLeftOf[poolId][sender] -= amountRequested;
            emit UpdatedAmountLeft(poolId, sender, amountLeftOf[poolId][sender]);
        }
        return (Currency.wrap(address(0)), 0);
    }
}
