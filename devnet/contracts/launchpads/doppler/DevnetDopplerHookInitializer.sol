// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {BalanceDelta, BalanceDeltaLibrary} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {ModifyLiquidityParams, SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {DevnetDecayingFeeHook} from "../DevnetDecayingFeeHook.sol";
import {DevnetRehypeDopplerHook} from "./DevnetRehypeDopplerHook.sol";

/// @notice Devnet stand-in for Doppler's DopplerHookInitializer with the rehype Doppler hook (whetstoneresearch/doppler
/// src/initializers/DopplerHookInitializer.sol): the pool's `hooks`. Its pool has the dynamic-fee flag and a stored LP
/// fee set once at initialisation (`updateDynamicLPFee`; the hook never overrides it per swap), and after every
/// exact-input swap it takes the rehype hook's fee from the OUTPUT (afterSwap with a returned delta), so a buyer keeps
/// (1 - lp)(1 - hookFee) of the tokens. Its permissions, so its address bits, are the real ones (beforeInitialize,
/// afterAddLiquidity, afterRemoveLiquidity, afterSwap, afterSwapReturnDelta), and it emits the real ModifyLiquidity and
/// Swap events. Simplified: the Airlock (its launchpad) initialises the pool, not the initializer itself; exact-output
/// swaps pay no hook fee; the fee goes to the rehype hook contract and stays there.
contract DevnetDopplerHookInitializer is DevnetDecayingFeeHook {
    DevnetRehypeDopplerHook public immutable rehype;

    mapping(PoolId => bool) public registered;

    event ModifyLiquidity(PoolKey key, ModifyLiquidityParams params);
    event Swap(
        address indexed sender,
        PoolKey indexed poolKey,
        PoolId indexed poolId,
        SwapParams params,
        int128 amount0,
        int128 amount1,
        bytes hookData
    );

    error OnlyInitializer();

    constructor(IPoolManager poolManager_, address admin_, DevnetRehypeDopplerHook rehype_) DevnetDecayingFeeHook(poolManager_, admin_) {
        rehype = rehype_;
    }

    function getHookPermissions() public pure override returns (Hooks.Permissions memory p) {
        p.beforeInitialize = true;
        p.afterAddLiquidity = true;
        p.afterRemoveLiquidity = true;
        p.afterSwap = true;
        p.afterSwapReturnDelta = true;
    }

    /// @dev The real one lets only itself initialise its pools; here its launchpad does.
    function _beforeInitialize(address sender, PoolKey calldata, uint160) internal view override returns (bytes4) {
        if (sender != launchpad) revert OnlyInitializer();
        return this.beforeInitialize.selector;
    }

    function _afterAddLiquidity(address, PoolKey calldata key, ModifyLiquidityParams calldata params, BalanceDelta, BalanceDelta, bytes calldata)
        internal
        override
        returns (bytes4, BalanceDelta)
    {
        emit ModifyLiquidity(key, params);
        return (this.afterAddLiquidity.selector, BalanceDeltaLibrary.ZERO_DELTA);
    }

    function _afterRemoveLiquidity(address, PoolKey calldata key, ModifyLiquidityParams calldata params, BalanceDelta, BalanceDelta, bytes calldata)
        internal
        override
        returns (bytes4, BalanceDelta)
    {
        emit ModifyLiquidity(key, params);
        return (this.afterRemoveLiquidity.selector, BalanceDeltaLibrary.ZERO_DELTA);
    }

    /// @notice Sets the pool's LP fee once it is initialised (only the pool's hook may), as the real initializer does.
    function initializePool(PoolKey calldata key, uint24 lpFee) external onlyLaunchpad {
        registered[key.toId()] = true;
        poolManager.updateDynamicLPFee(key, lpFee);
    }

    function _afterSwap(address sender, PoolKey calldata key, SwapParams calldata params, BalanceDelta delta, bytes calldata data)
        internal
        override
        returns (bytes4, int128)
    {
        PoolId poolId = key.toId();
        if (!registered[poolId]) revert PoolNotRegistered();
        uint256 fee = _takeFee(key, poolId, params, delta);
        emit Swap(sender, key, poolId, params, delta.amount0(), delta.amount1(), data);
        return (this.afterSwap.selector, int128(uint128(fee)));
    }

    /// @dev The rehype hook's fee of an exact-input swap's output, taken to the rehype hook; 0 otherwise.
    function _takeFee(PoolKey calldata key, PoolId poolId, SwapParams calldata params, BalanceDelta delta) private returns (uint256 fee) {
        int128 output = params.zeroForOne ? delta.amount1() : delta.amount0();
        if (params.amountSpecified >= 0 || output <= 0) return 0;
        fee = (uint256(uint128(output)) * rehype.swapFee(poolId)) / 1_000_000;
        if (fee > 0) poolManager.take(params.zeroForOne ? key.currency1 : key.currency0, address(rehype), fee);
    }
}
