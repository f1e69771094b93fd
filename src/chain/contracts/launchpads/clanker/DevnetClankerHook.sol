// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BeforeSwapDelta, toBeforeSwapDelta} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {DevnetDecayingFeeHook} from "../DevnetDecayingFeeHook.sol";

/// @notice Devnet stand-in for Clanker v4's hook and its descending-fee MEV module in one contract (the real ones are
/// two: the hook at `poolHook` and the module at `mevModule`; the devnet factory reports this contract as both).
/// - LP fee `pairedFee(poolId)` (default 1%); a protocol fee of 20% of the charged LP fee on top, taken from the input
///   of exact-input buys, so the buyer's effective fee is f_total = 1 - (1 - f) / (1 + 0.2 f).
/// - Sniper fee: quadratic per-second decay from startingFee to endingFee over secondsToDecay from the pool's start;
///   it replaces the LP fee only when higher; after the decay window the module is off and the LP fee alone applies.
/// - A swap in the deployment second reverts. No auction rounds (SniperAuctionV2 has them on Base).
contract DevnetClankerHook is DevnetDecayingFeeHook {
    struct FeeConfig {
        uint24 startingFee;
        uint24 endingFee;
        uint256 secondsToDecay;
    }

    uint24 public constant MAX_LP_FEE = 100_000;
    uint24 public constant MAX_MEV_FEE = 800_000;
    uint256 public constant PROTOCOL_FEE_NUMERATOR = 200_000; // 20% of the LP fee, in millionths

    mapping(PoolId => FeeConfig) public feeConfig;
    mapping(PoolId => uint24) public pairedFee;
    mapping(PoolId => uint256) public poolStartTime;
    mapping(PoolId => address) public pairedTokenOf;

    event FeeConfigSet(bytes32 poolId, uint24 startingFee, uint24 endingFee, uint256 secondsToDecay);

    error SameSecondAsDeployment();
    error InvalidFeeConfig();

    constructor(IPoolManager poolManager_, address admin_) DevnetDecayingFeeHook(poolManager_, admin_) {}

    function getHookPermissions() public pure override returns (Hooks.Permissions memory p) {
        p.beforeSwap = true;
        p.beforeSwapReturnDelta = true;
    }

    function registerPool(PoolId poolId, address pairedToken, uint24 lpFee, FeeConfig calldata config)
        external
        onlyLaunchpad
    {
        if (
            lpFee > MAX_LP_FEE || config.startingFee > MAX_MEV_FEE || config.startingFee < config.endingFee
                || config.secondsToDecay == 0
        ) revert InvalidFeeConfig();
        feeConfig[poolId] = config;
        pairedFee[poolId] = lpFee;
        poolStartTime[poolId] = block.timestamp;
        pairedTokenOf[poolId] = pairedToken;
        emit FeeConfigSet(PoolId.unwrap(poolId), config.startingFee, config.endingFee, config.secondsToDecay);
    }

    /// @notice The sniper (MEV) fee at a timestamp, 0 once the decay window is over.
    function mevFeeAt(PoolId poolId, uint256 timestamp) public view returns (uint24) {
        FeeConfig memory c = feeConfig[poolId];
        uint256 start = poolStartTime[poolId];
        if (timestamp < start) return c.startingFee;
        uint256 elapsed = timestamp - start;
        if (elapsed >= c.secondsToDecay) return 0;
        uint256 remaining = c.secondsToDecay - elapsed;
        uint256 range = c.startingFee - c.endingFee;
        return uint24(c.endingFee + (range * remaining * remaining) / (c.secondsToDecay * c.secondsToDecay));
    }

    /// @notice The LP fee a swap at `timestamp` is charged (the larger of the LP fee and the sniper fee).
    function lpFeeAt(PoolId poolId, uint256 timestamp) public view returns (uint24) {
        uint24 lp = pairedFee[poolId];
        uint24 mev = mevFeeAt(poolId, timestamp);
        return mev > lp ? mev : lp;
    }

    function _beforeSwap(address, PoolKey calldata key, SwapParams calldata params, bytes calldata)
        internal
        override
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        PoolId poolId = key.toId();
        uint256 start = poolStartTime[poolId];
        if (start == 0) revert PoolNotRegistered();
        if (block.timestamp == start) revert SameSecondAsDeployment();
        uint24 fee = lpFeeAt(poolId, block.timestamp);

        int128 protocolFee = 0;
        Currency paired = Currency.wrap(pairedTokenOf[poolId]);
        Currency input = params.zeroForOne ? key.currency0 : key.currency1;
        if (params.amountSpecified < 0 && input == paired) {
            // fee/(5e6+fee) of the input is 20% of the LP fee applied to what remains: input/(1+0.2f) reaches the pool.
            uint256 amountIn = uint256(-params.amountSpecified);
            uint256 taken = (amountIn * fee) / (5 * 1_000_000 + uint256(fee));
            if (taken > 0) {
                // Claims, not a transfer: the pool may hold none of the paired token yet.
                poolManager.mint(address(this), paired.toId(), taken);
                protocolFee = int128(int256(taken));
            }
        }
        return (this.beforeSwap.selector, toBeforeSwapDelta(protocolFee, 0), fee | LPFeeLibrary.OVERRIDE_FEE_FLAG);
    }
}
