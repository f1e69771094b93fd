// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {BeforeSwapDelta, BeforeSwapDeltaLibrary} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {DevnetDecayingFeeHook} from "./DevnetDecayingFeeHook.sol";

/// @notice A devnet hook whose whole fee is one schedule decaying LINEARLY per second (Doppler, Zora): the swap pays
/// `feeAt(now)` as an LP-fee override, nothing on top. Subclasses validate and register schedules and name the view.
abstract contract DevnetLinearFeeHook is DevnetDecayingFeeHook {
    struct LinearFee {
        uint32 startingTime;
        uint24 startFee;
        uint24 endFee;
        uint32 durationSeconds;
    }

    mapping(PoolId => LinearFee) internal linearFees;

    constructor(IPoolManager poolManager_, address admin_) DevnetDecayingFeeHook(poolManager_, admin_) {}

    /// @notice Sets a launched pool's schedule (the launchpad only); each launchpad's hook validates it its own way.
    function registerPool(PoolId poolId, LinearFee calldata schedule) external virtual;

    function getHookPermissions() public pure override returns (Hooks.Permissions memory p) {
        p.beforeSwap = true;
    }

    function feeAt(PoolId poolId, uint256 timestamp) public view virtual returns (uint24) {
        LinearFee memory f = linearFees[poolId];
        return _linearFee(f.startFee, f.endFee, f.startingTime, f.durationSeconds, timestamp);
    }

    function _beforeSwap(address, PoolKey calldata key, SwapParams calldata, bytes calldata)
        internal
        view
        override
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        PoolId poolId = key.toId();
        if (linearFees[poolId].durationSeconds == 0) revert PoolNotRegistered();
        return (
            this.beforeSwap.selector,
            BeforeSwapDeltaLibrary.ZERO_DELTA,
            feeAt(poolId, block.timestamp) | LPFeeLibrary.OVERRIDE_FEE_FLAG
        );
    }
}
