// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {DevnetLinearFeeHook} from "../DevnetLinearFeeHook.sol";

/// @notice Devnet stand-in for Zora's coin hook launch fee (hooks/ZoraV4CoinHook.sol): linear from startFee to endFee
/// over durationSeconds from the coin's creation, then endFee (on Base 99% -> 1% over 10 s). Like the real hook it
/// exposes no schedule view: the adapter prices Zora's documented constant schedule.
contract DevnetZoraHook is DevnetLinearFeeHook {
    error InvalidLaunchFee();

    constructor(IPoolManager poolManager_, address admin_) DevnetLinearFeeHook(poolManager_, admin_) {}

    function registerPool(PoolId poolId, LinearFee calldata fee) external override onlyLaunchpad {
        if (fee.startFee > LPFeeLibrary.MAX_LP_FEE || fee.startFee < fee.endFee || fee.durationSeconds == 0) {
            revert InvalidLaunchFee();
        }
        linearFees[poolId] = fee;
    }

}
