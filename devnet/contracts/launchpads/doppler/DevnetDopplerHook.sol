// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {DevnetLinearFeeHook} from "../DevnetLinearFeeHook.sol";

/// @notice Devnet stand-in for Doppler's decay-multicurve hook: the LP fee decays LINEARLY per second from startFee to
/// endFee over durationSeconds from startingTime (before it: startFee), capped at 900,000. Nothing on top of the LP fee.
contract DevnetDopplerHook is DevnetLinearFeeHook {
    uint24 public constant MAX_START_FEE = 900_000;

    event FeeScheduleSet(
        bytes32 indexed poolId, uint32 startingTime, uint24 startFee, uint24 endFee, uint32 durationSeconds
    );

    error InvalidFeeSchedule();

    constructor(IPoolManager poolManager_, address admin_) DevnetLinearFeeHook(poolManager_, admin_) {}

    function registerPool(PoolId poolId, LinearFee calldata schedule) external override onlyLaunchpad {
        if (
            schedule.startFee > MAX_START_FEE || schedule.startFee < schedule.endFee || schedule.durationSeconds == 0
        ) revert InvalidFeeSchedule();
        linearFees[poolId] = schedule;
        emit FeeScheduleSet(
            PoolId.unwrap(poolId), schedule.startingTime, schedule.startFee, schedule.endFee, schedule.durationSeconds
        );
    }

    /// The real hook's public mapping getter of {uint32 startingTime; uint24 startFee; uint24 endFee; uint24 lastFee;
    /// uint32 durationSeconds}: five values (legacy/src/initializers/DecayMulticurveInitializerHook.sol). The real
    /// `lastFee` is the fee its last swap paid (written in beforeSwap); this view-only hook reports the fee in force.
    function getFeeScheduleOf(PoolId poolId)
        external
        view
        returns (uint32 startingTime, uint24 startFee, uint24 endFee, uint24 lastFee, uint32 durationSeconds)
    {
        LinearFee memory f = linearFees[poolId];
        return (f.startingTime, f.startFee, f.endFee, feeAt(poolId, block.timestamp), f.durationSeconds);
    }
}
