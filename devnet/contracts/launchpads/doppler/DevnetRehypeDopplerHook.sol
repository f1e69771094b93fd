// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";

/// @notice Devnet stand-in for Doppler's rehype Doppler hook (whetstoneresearch/doppler
/// src/dopplerHooks/RehypeDopplerHookInitializer.sol, src/types/RehypeTypes.sol), a plugin of the pool's hook
/// (DevnetDopplerHookInitializer) called through the real plugin interface (src/base/BaseDopplerHookInitializer.sol:
/// `onInitialization`, `onSwap`, only from the initializer). It owns a launch's decaying fee schedule, announces it with
/// FeeScheduleSet (emitted by THIS contract, not by the pool's hook), exposes it through the public mapping getter
/// `getFeeSchedule` (five fields, as the real FeeSchedule struct), and on each swap returns the fee the initializer
/// takes from the OUTPUT of an exact-input swap (the input of an exact-output one): linear from startFee to endFee over
/// durationSeconds from startingTime (integer maths as the real _getCurrentFee/_computeCurrentFee), recording the last
/// fee with FeeUpdated. Start fees are capped at MAX_SWAP_FEE (0.8e6) like the real one.
///
/// The fee DENOMINATOR is a constructor argument because the real deployments differ (_collectSwapFees:
/// `FullMath.mulDiv(feeBase, currentFee, MAX_SWAP_FEE)`, MAX_SWAP_FEE = 0.8e6 from commit 9e1d24c "feat: update
/// MAX_SWAP_FEE" (2026-03-09) until 1f1eadbf "fix: rehype fees" (2026-07-22) divides by SWAP_FEE_DENOMINATOR = 1e6).
/// deployments/8453.md: 0xc918...066d (9e1d24c), 0x6ab5...4be4 (2cd788c) and 0xbf41...d123 (562feb3, doppler-sdk
/// 1.0.30's Base address) divide by 800,000; 0x9982...fdbb (c5e9f99c, 2026-07-23) by 1,000,000.
/// Simplified: no fee distribution, buybacks or LP reinvestment (the fee stays here), no beneficiaries; the schedule's
/// init data is only (startFee, endFee, durationSeconds), starting at the launch block's time.
contract DevnetRehypeDopplerHook {
    struct FeeSchedule {
        uint32 startingTime;
        uint24 startFee;
        uint24 endFee;
        uint24 lastFee;
        uint32 durationSeconds;
    }

    uint256 public constant MAX_SWAP_FEE = 800_000;

    /// @notice What a swap's fee base is multiplied by the fee over: 800,000 (as deployed March-April 2026) or 1e6.
    uint256 public immutable feeDenominator;
    /// @notice The pool hook whose plugin this is (BaseDopplerHookInitializer's constructor argument, as the real one).
    address public immutable initializer;

    mapping(PoolId => FeeSchedule) public getFeeSchedule;

    event FeeScheduleSet(PoolId indexed poolId, uint32 startingTime, uint24 startFee, uint24 endFee, uint32 durationSeconds);
    event FeeUpdated(PoolId indexed poolId, uint24 fee);

    error SenderNotInitializer();
    error FeeTooHigh(uint24 fee);
    error InvalidFeeRange(uint24 startFee, uint24 endFee);

    constructor(address initializer_, uint256 feeDenominator_) {
        initializer = initializer_;
        feeDenominator = feeDenominator_;
    }

    modifier onlyInitializer() {
        if (msg.sender != initializer) revert SenderNotInitializer();
        _;
    }

    /// @notice The real plugin's initialization callback: registers the pool's schedule from `data`.
    function onInitialization(address, PoolKey calldata key, bytes calldata data) external onlyInitializer {
        (uint24 startFee, uint24 endFee, uint32 durationSeconds) = abi.decode(data, (uint24, uint24, uint32));
        if (startFee > MAX_SWAP_FEE) revert FeeTooHigh(startFee);
        if (startFee < endFee) revert InvalidFeeRange(startFee, endFee);
        PoolId poolId = key.toId();
        uint32 start = uint32(block.timestamp);
        getFeeSchedule[poolId] = FeeSchedule(start, startFee, endFee, startFee, durationSeconds);
        emit FeeScheduleSet(poolId, start, startFee, endFee, durationSeconds);
    }

    /// @notice The real plugin's swap callback (_collectSwapFees): the fee currency is the unspecified one, the fee
    /// `feeBase * currentFee / feeDenominator`; the initializer takes it and credits it here.
    function onSwap(address, PoolKey calldata key, SwapParams calldata params, BalanceDelta delta, bytes calldata)
        external
        onlyInitializer
        returns (Currency feeCurrency, int128 feeDelta)
    {
        int256 outputAmount = params.zeroForOne ? delta.amount1() : delta.amount0();
        if (outputAmount <= 0) return (feeCurrency, feeDelta);
        bool exactInput = params.amountSpecified < 0;
        feeCurrency = params.zeroForOne == exactInput ? key.currency1 : key.currency0;
        uint256 feeBase;
        if (exactInput) {
            feeBase = uint256(outputAmount);
        } else {
            int256 inputAmount = params.zeroForOne ? delta.amount0() : delta.amount1();
            feeBase = uint256(-inputAmount);
        }
        uint256 feeAmount = (feeBase * _currentFee(key.toId())) / feeDenominator;
        feeDelta = int128(uint128(feeAmount));
    }

    /// @dev The real _getCurrentFee, step by step.
    function _currentFee(PoolId poolId) private returns (uint24 fee) {
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
