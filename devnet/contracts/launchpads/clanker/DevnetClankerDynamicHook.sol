// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {DevnetClankerHook} from "./DevnetClankerHook.sol";

/// @notice Devnet stand-in for Clanker's dynamic-fee hook (clanker-devco/v4-contracts
/// src/hooks/ClankerHookDynamicFeeV2.sol, on Base 0xd60D6B218116cFd801E28F78d011a203D2b068Cc): the LP fee of a swap is
/// `baseFee + feeControlNumerator * VA^2 / 1e10`, capped at `maxLpFee`, where the volatility accumulator VA is the
/// distance in ticks between a reference tick and the tick after the swap itself (simulated by running the swap and
/// reverting with the tick, as the real hook does), plus the decayed volatility of the previous swap. The reference
/// tick is reset to the current tick when no swap happened for `referenceTickFilterPeriod`. The same real getters:
/// `poolConfigVars(poolId)` (7 fields) and `poolFeeVars(poolId)` (6 fields), set from `initializePool`'s poolData
/// (feeData = PoolDynamicConfigVars); `pairedFee` and `clankerFee` revert with no data, as a missing function does on
/// the real one.
/// Simplified: the reset-period rule (resetTick, resetTickFilter) is not applied; the simulation ignores the protocol
/// fee's reduction of the input (the simulated move, and so the fee, is slightly larger).
contract DevnetClankerDynamicHook is DevnetClankerHook {
    using StateLibrary for IPoolManager;


    struct PoolDynamicConfigVars {
        uint24 baseFee;
        uint24 maxLpFee;
        uint256 referenceTickFilterPeriod;
        uint256 resetPeriod;
        int24 resetTickFilter;
        uint256 feeControlNumerator;
        uint24 decayFilterBps;
    }

    struct PoolDynamicFeeVars {
        int24 referenceTick;
        int24 resetTick;
        uint256 resetTickTimestamp;
        uint256 lastSwapTimestamp;
        uint24 appliedVR;
        uint24 prevVA;
    }

    uint24 public constant BPS_DENOMINATOR = 10_000;
    uint24 public constant MIN_BASE_FEE = 2500;
    uint256 public constant FEE_CONTROL_DENOMINATOR = 10_000_000_000;

    mapping(PoolId => PoolDynamicConfigVars) internal _poolConfigVars;
    mapping(PoolId => PoolDynamicFeeVars) internal _poolFeeVars;

    event PoolInitialized(
        PoolId poolId,
        uint24 baseFee,
        uint24 maxLpFee,
        uint256 referenceTickFilterPeriod,
        uint256 resetPeriod,
        int24 resetTickFilter,
        uint256 feeControlNumerator,
        uint24 decayFilterBps
    );
    event EstimatedTickDifference(int24 beforeTick, int24 afterTick);

    error BaseFeeTooLow();
    error MaxLpFeeTooHigh();
    error BaseFeeGreaterThanMaxLpFee();
    error TickReturned(int24 tick);
    error OnlySelf();

    constructor(IPoolManager poolManager_, address admin_) DevnetClankerHook(poolManager_, admin_) {}

    function poolConfigVars(PoolId poolId) external view returns (PoolDynamicConfigVars memory) {
        return _poolConfigVars[poolId];
    }

    function poolFeeVars(PoolId poolId) external view returns (PoolDynamicFeeVars memory) {
        return _poolFeeVars[poolId];
    }

    /// @notice The real dynamic hook has no pairedFee: calling it reverts with no data, as calling a missing function does.
    function pairedFee(PoolId) external pure override returns (uint24) {
        assembly ("memory-safe") {
            revert(0, 0)
        }
    }

    /// @notice The real dynamic hook has no clankerFee either.
    function clankerFee(PoolId) external pure override returns (uint24) {
        assembly ("memory-safe") {
            revert(0, 0)
        }
    }

    /// @dev ClankerHookDynamicFeeV2._initializeFeeData: poolData's fee data is a PoolDynamicConfigVars, checked and stored.
    function _initializeFeeData(PoolKey memory key, bytes memory feeData) internal override {
        PoolDynamicConfigVars memory config = abi.decode(feeData, (PoolDynamicConfigVars));
        if (config.baseFee < MIN_BASE_FEE) revert BaseFeeTooLow();
        if (config.maxLpFee > MAX_LP_FEE) revert MaxLpFeeTooHigh();
        if (config.baseFee > config.maxLpFee) revert BaseFeeGreaterThanMaxLpFee();
        PoolId poolId = key.toId();
        emit PoolInitialized(
            poolId,
            config.baseFee,
            config.maxLpFee,
            config.referenceTickFilterPeriod,
            config.resetPeriod,
            config.resetTickFilter,
            config.feeControlNumerator,
            config.decayFilterBps
        );
        _poolConfigVars[poolId] = config;
    }

    function _lpFee(PoolKey calldata key, SwapParams calldata params) internal override returns (uint24) {
        PoolId poolId = key.toId();
        PoolDynamicFeeVars storage vars = _poolFeeVars[poolId];
        PoolDynamicConfigVars storage config = _poolConfigVars[poolId];
        (, int24 tickBefore,,) = poolManager.getSlot0(poolId);
        if (vars.lastSwapTimestamp + config.referenceTickFilterPeriod < block.timestamp) {
            vars.referenceTick = tickBefore;
            vars.resetTick = tickBefore;
            vars.resetTickTimestamp = block.timestamp;
            vars.appliedVR = vars.lastSwapTimestamp + config.resetPeriod > block.timestamp
                ? uint24((uint256(vars.prevVA) * config.decayFilterBps) / BPS_DENOMINATOR)
                : 0;
        }
        vars.lastSwapTimestamp = block.timestamp;
        int24 tickAfter = _simulatedTickAfter(key, params);
        int24 diff = vars.referenceTick - tickAfter;
        uint256 va = uint256(uint24(diff > 0 ? diff : -diff)) + vars.appliedVR;
        if (va > type(uint24).max) va = type(uint24).max;
        vars.prevVA = uint24(va);
        emit EstimatedTickDifference(tickBefore, tickAfter);
        uint256 fee = config.baseFee + (config.feeControlNumerator * va * va) / FEE_CONTROL_DENOMINATOR;
        return fee > config.maxLpFee ? config.maxLpFee : uint24(fee);
    }

    function _simulatedTickAfter(PoolKey calldata key, SwapParams calldata params) private returns (int24 tickAfter) {
        try this.simulateSwap(key, params) {
            revert("simulate swap should fail");
        } catch (bytes memory reason) {
            if (bytes4(reason) != TickReturned.selector) revert("returned selector should be TickReturned");
            assembly ("memory-safe") {
                tickAfter := signextend(2, mload(add(reason, 36)))
            }
        }
    }

    /// @notice Runs the swap (the PoolManager does not call a hook for its own swaps) and reverts with the tick after it.
    function simulateSwap(PoolKey calldata key, SwapParams calldata params) external {
        if (msg.sender != address(this)) revert OnlySelf();
        poolManager.swap(key, params, "");
        (, int24 tickAfter,,) = poolManager.getSlot0(key.toId());
        revert TickReturned(tickAfter);
    }
}
