// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {BeforeSwapDelta, BeforeSwapDeltaLibrary} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {DevnetDecayingFeeHook} from "../DevnetDecayingFeeHook.sol";

/// @notice Devnet stand-in for Zora's coin hook launch fee: linear from startFee to endFee over durationSeconds, then
/// endFee (Zora on Base: 99% -> 1% over 10 s). Real Zora exposes no schedule view; `getLaunchFee` is a devnet
/// extension so the CLI's --start-fee/--end-fee/--decay-seconds can be honoured and read back.
contract DevnetZoraHook is DevnetDecayingFeeHook {
    struct LaunchFee {
        uint32 startingTime;
        uint24 startFee;
        uint24 endFee;
        uint32 durationSeconds;
    }

    mapping(PoolId => LaunchFee) internal launchFees;

    error InvalidLaunchFee();

    constructor(IPoolManager poolManager_, address admin_) DevnetDecayingFeeHook(poolManager_, admin_) {}

    function getHookPermissions() public pure override returns (Hooks.Permissions memory p) {
        p.beforeSwap = true;
    }

    function registerPool(PoolId poolId, LaunchFee calldata fee) external onlyLaunchpad {
        if (fee.startFee > LPFeeLibrary.MAX_LP_FEE || fee.startFee < fee.endFee || fee.durationSeconds == 0) {
            revert InvalidLaunchFee();
        }
        launchFees[poolId] = fee;
    }

    function getLaunchFee(PoolId poolId) external view returns (LaunchFee memory) {
        return launchFees[poolId];
    }

    function feeAt(PoolId poolId, uint256 timestamp) public view returns (uint24) {
        LaunchFee memory f = launchFees[poolId];
        return _linearFee(f.startFee, f.endFee, f.startingTime, f.durationSeconds, timestamp);
    }

    function _beforeSwap(address, PoolKey calldata key, SwapParams calldata, bytes calldata)
        internal
        view
        override
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        PoolId poolId = key.toId();
        if (launchFees[poolId].durationSeconds == 0) revert PoolNotRegistered();
        return (
            this.beforeSwap.selector,
            BeforeSwapDeltaLibrary.ZERO_DELTA,
            feeAt(poolId, block.timestamp) | LPFeeLibrary.OVERRIDE_FEE_FLAG
        );
    }
}
