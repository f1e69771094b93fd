// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {DevnetLinearFeeHook} from "../DevnetLinearFeeHook.sol";

/// @notice Devnet stand-in for Zora's coin hook launch fee (hooks/ZoraV4CoinHook.sol): linear from startFee to endFee
/// over durationSeconds from the coin's creation, then endFee (on Base 99% -> 1% over 10 s). Like the real hook it
/// exposes no schedule view: the adapter prices Zora's documented constant schedule.
/// A trend coin's fee after the launch fee is TREND_LP_FEE_V4 = 100 (0.01%) instead of 1% (the real
/// `_calculateLaunchFee`: once `elapsed >= LAUNCH_FEE_DURATION`, `coinType() == Trend` gives the trend fee; during the
/// decay the slope still runs toward 1%): `floorFee` is that fee for the pools the factory marks.
contract DevnetZoraHook is DevnetLinearFeeHook {
    error InvalidLaunchFee();

    /// @notice The fee once the launch fee is over, where it differs from the schedule's end fee (trend coins: 100).
    mapping(PoolId => uint24) public floorFee;

    function setFloorFee(PoolId poolId, uint24 fee) external onlyLaunchpad {
        floorFee[poolId] = fee;
    }

    function feeAt(PoolId poolId, uint256 timestamp) public view override returns (uint24) {
        LinearFee memory f = linearFees[poolId];
        uint24 floor = floorFee[poolId];
        if (floor != 0 && timestamp >= uint256(f.startingTime) + f.durationSeconds) return floor;
        return super.feeAt(poolId, timestamp);
    }

    constructor(IPoolManager poolManager_, address admin_) DevnetLinearFeeHook(poolManager_, admin_) {}

    function registerPool(PoolId poolId, LinearFee calldata fee) external override onlyLaunchpad {
        if (fee.startFee > LPFeeLibrary.MAX_LP_FEE || fee.startFee < fee.endFee || fee.durationSeconds == 0) {
            revert InvalidLaunchFee();
        }
        linearFees[poolId] = fee;
    }

}
