// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";

/// @notice Devnet stand-in for Doppler's rehype Doppler hook (whetstoneresearch/doppler
/// src/dopplerHooks/RehypeDopplerHookInitializer.sol, src/types/RehypeTypes.sol): it owns a launch's decaying fee
/// schedule, announces it with FeeScheduleSet (emitted by THIS contract, not by the pool's hook), exposes it through
/// the public mapping getter `getFeeSchedule` (five fields, as the real FeeSchedule struct), and gives the pool's hook
/// (DevnetDopplerHookInitializer) the fee to take from each exact-input swap's OUTPUT: linear from startFee to endFee
/// over durationSeconds from startingTime (integer maths as the real _computeCurrentFee), recording the last fee with
/// FeeUpdated. Capped at MAX_SWAP_FEE (80%) like the real one.
/// Simplified: no fee distribution, buybacks or LP reinvestment (the fee stays here), no beneficiaries.
contract DevnetRehypeDopplerHook {
    struct FeeSchedule {
        uint32 startingTime;
        uint24 startFee;
        uint24 endFee;
        uint24 lastFee;
        uint32 durationSeconds;
    }

    uint256 public constant MAX_SWAP_FEE = 800_000;

    address public immutable admin;
    /// @notice The airlock that registers schedules and the pool hook that asks for fees, named once by the admin.
    address public airlock;
    address public initializer;

    mapping(PoolId => FeeSchedule) public getFeeSchedule;

    event FeeScheduleSet(PoolId indexed poolId, uint32 startingTime, uint24 startFee, uint24 endFee, uint32 durationSeconds);
    event FeeUpdated(PoolId indexed poolId, uint24 fee);

    error Unauthorized();
    error AlreadySet();
    error FeeTooHigh(uint24 fee);
    error InvalidFeeRange(uint24 startFee, uint24 endFee);

    constructor(address admin_) {
        admin = admin_;
    }

    function setCallers(address airlock_, address initializer_) external {
        if (msg.sender != admin) revert Unauthorized();
        if (airlock != address(0)) revert AlreadySet();
        airlock = airlock_;
        initializer = initializer_;
    }

    function register(PoolId poolId, uint24 startFee, uint24 endFee, uint32 durationSeconds) external {
        if (msg.sender != airlock) revert Unauthorized();
        if (startFee > MAX_SWAP_FEE) revert FeeTooHigh(startFee);
        if (startFee < endFee) revert InvalidFeeRange(startFee, endFee);
        uint32 start = uint32(block.timestamp);
        getFeeSchedule[poolId] = FeeSchedule(start, startFee, endFee, startFee, durationSeconds);
        emit FeeScheduleSet(poolId, start, startFee, endFee, durationSeconds);
    }

    /// @notice The fee of a swap now (pips), recorded as the last fee when it dropped. Only the pool's hook asks.
    function swapFee(PoolId poolId) external returns (uint24 fee) {
        if (msg.sender != initializer) revert Unauthorized();
        FeeSchedule memory s = getFeeSchedule[poolId];
        if (s.startFee == s.endFee || s.durationSeconds == 0) return s.startFee;
        if (s.lastFee == s.endFee) return s.endFee;
        if (block.timestamp <= s.startingTime) return s.startFee;
        uint256 elapsed = block.timestamp - s.startingTime;
        fee = elapsed >= s.durationSeconds ? s.endFee : uint24(s.startFee - (uint256(s.startFee - s.endFee) * elapsed) / s.durationSeconds);
        if (fee < s.lastFee) {
            getFeeSchedule[poolId].lastFee = fee;
            emit FeeUpdated(poolId, fee);
        }
    }
}
