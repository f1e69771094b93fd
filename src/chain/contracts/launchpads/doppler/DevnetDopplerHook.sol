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

/// @notice Devnet stand-in for Doppler's decay-multicurve hook: the LP fee decays LINEARLY per second from startFee to
/// endFee over durationSeconds from startingTime (before it: startFee), capped at 900,000. Nothing on top of the LP fee.
contract DevnetDopplerHook is DevnetDecayingFeeHook {
    struct FeeSchedule {
        uint32 startingTime;
        uint24 startFee;
        uint24 endFee;
        uint32 durationSeconds;
    }

    uint24 public constant MAX_START_FEE = 900_000;

    mapping(PoolId => FeeSchedule) internal schedules;

    event FeeScheduleSet(
        bytes32 indexed poolId, uint32 startingTime, uint24 startFee, uint24 endFee, uint32 durationSeconds
    );

    error InvalidFeeSchedule();

    constructor(IPoolManager poolManager_, address admin_) DevnetDecayingFeeHook(poolManager_, admin_) {}

    function getHookPermissions() public pure override returns (Hooks.Permissions memory p) {
        p.beforeSwap = true;
    }

    function registerPool(PoolId poolId, FeeSchedule calldata schedule) external onlyLaunchpad {
        if (
            schedule.startFee > MAX_START_FEE || schedule.startFee < schedule.endFee || schedule.durationSeconds == 0
        ) revert InvalidFeeSchedule();
        schedules[poolId] = schedule;
        emit FeeScheduleSet(
            PoolId.unwrap(poolId), schedule.startingTime, schedule.startFee, schedule.endFee, schedule.durationSeconds
        );
    }

    function getFeeScheduleOf(PoolId poolId) external view returns (FeeSchedule memory) {
        return schedules[poolId];
    }

    function feeAt(PoolId poolId, uint256 timestamp) public view returns (uint24) {
        FeeSchedule memory s = schedules[poolId];
        return _linearFee(s.startFee, s.endFee, s.startingTime, s.durationSeconds, timestamp);
    }

    function _beforeSwap(address, PoolKey calldata key, SwapParams calldata, bytes calldata)
        internal
        view
        override
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        PoolId poolId = key.toId();
        if (schedules[poolId].durationSeconds == 0) revert PoolNotRegistered();
        return (
            this.beforeSwap.selector,
            BeforeSwapDeltaLibrary.ZERO_DELTA,
            feeAt(poolId, block.timestamp) | LPFeeLibrary.OVERRIDE_FEE_FLAG
        );
    }
}
