// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {BaseHook} from "@uniswap/v4-periphery/src/utils/BaseHook.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {BeforeSwapDelta, BeforeSwapDeltaLibrary, toBeforeSwapDelta} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";
import {ModifyLiquidityParams, SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";

/// @notice Devnet stand-in for the Clanker v5 hook, placed at its Base address 0x5E320eA6278107968C119942E57d876c5F922AcC
/// (clanker-devco/DOCS references/core-contracts/v5.md). No v5 source or ABI is published (../shared/facts/base-today.md,
/// "Clanker v5"), so this contract imitates the documented behaviour (clanker-devco/DOCS general/token-deployments.md
/// "How a v5 token works", general/creator-rewards-and-fees.md "Clanker v5"), and nothing in prebuy reads its getters:
/// prebuy finds v5 pools by the PoolManager's Initialize naming this hook and measures the fee by quoting the swap.
/// - Permissions: the ones the real address encodes in its low 14 bits, 0x2ACC = beforeInitialize, beforeAddLiquidity,
///   beforeRemoveLiquidity, beforeSwap, afterSwap, beforeSwapReturnDelta, afterSwapReturnDelta (v4-core Hooks.sol flag
///   bits). They say what the real hook implements; this one does the documented thing in each: only the factory
///   initialises pools and adds liquidity, liquidity "can never be removed", and the tax is taken by the swap hooks.
/// - "No LP fee: a buy tax and a sell tax", each "between 1% and 10% of the trade" (the factory checks the range): a buy
///   (pair token in) pays the buy tax on its input, taken before the swap (beforeSwap's returned delta), so the pool
///   swaps input x (1 - tax); a sell (token in) pays the sell tax on its pair-token output (afterSwap's returned delta).
/// - Sniper fee, "when it is on, trades in the first 20 seconds after launch pay a higher total fee that starts at 99%
///   and falls to the normal tax": TOTAL fee = 990,000 pips at the launch second, falling to the tax at 20 s. The
///   documentation does not give the curve's shape: chosen linear per second of block.timestamp (like Zora's 99% -> 1%
///   over 10 s and Doppler's decay), integer maths identical to src/pricing/schedules/clanker-v5.ts:
///   fee = 990,000 - floor((990,000 - tax) * elapsed / 20) for elapsed < 20, the tax from then on.
/// Simplified: the whole tax (and sniper fee) stays here as ERC-6909 claims on the PoolManager (the real one splits it:
/// Clanker's fee max(10% of the tax, 0.5% of the trade) capped at 1% of the trade, the creator's share, dividends,
/// burn, integrator; a buyer receives the same tokens either way); exact-output swaps revert (prebuy buys exact-input).
contract DevnetClankerV5Hook is BaseHook {
    /// @dev "starts at 99%" (token-deployments.md).
    uint24 public constant SNIPER_START_FEE = 990_000;
    /// @dev "the first 20 seconds after launch" (token-deployments.md).
    uint256 public constant SNIPER_SECONDS = 20;
    uint256 private constant PIPS = 1_000_000;

    struct PoolConfig {
        uint24 buyTax;
        uint24 sellTax;
        bool sniperFee;
        bool pairIsCurrency0;
        /// @dev block.timestamp of the pool's initialisation: the sniper fee's start.
        uint64 launchedAt;
        bool registered;
    }

    /// @notice The factory, the only one that registers, initialises and funds pools.
    address public immutable factory;
    mapping(PoolId => PoolConfig) internal _configs;

    error OnlyFactory();
    error PoolNotRegistered();
    error LiquidityLocked();
    error ExactOutputNotSupported();

    constructor(IPoolManager poolManager_, address factory_) BaseHook(poolManager_) {
        factory = factory_;
    }

    function getHookPermissions() public pure override returns (Hooks.Permissions memory p) {
        p.beforeInitialize = true;
        p.beforeAddLiquidity = true;
        p.beforeRemoveLiquidity = true;
        p.beforeSwap = true;
        p.afterSwap = true;
        p.beforeSwapReturnDelta = true;
        p.afterSwapReturnDelta = true;
    }

    /// @notice The factory records a pool's taxes before initialising it.
    function registerPool(PoolKey calldata key, uint24 buyTax, uint24 sellTax, bool sniperFee, bool pairIsCurrency0)
        external
    {
        if (msg.sender != factory) revert OnlyFactory();
        _configs[key.toId()] = PoolConfig(buyTax, sellTax, sniperFee, pairIsCurrency0, 0, true);
    }

    /// @notice Devnet getter (not the real ABI): a pool's configuration.
    function poolConfig(PoolId poolId) external view returns (PoolConfig memory) {
        return _configs[poolId];
    }

    /// @notice Devnet getter (not the real ABI): the total fee, pips, a buy (or sell) pays at `timestamp`.
    function feeAt(PoolId poolId, bool buy, uint256 timestamp) public view returns (uint24) {
        PoolConfig memory c = _configs[poolId];
        uint24 tax = buy ? c.buyTax : c.sellTax;
        if (!c.sniperFee || timestamp <= c.launchedAt) return c.sniperFee ? SNIPER_START_FEE : tax;
        uint256 elapsed = timestamp - c.launchedAt;
        if (elapsed >= SNIPER_SECONDS) return tax;
        return uint24(SNIPER_START_FEE - ((SNIPER_START_FEE - uint256(tax)) * elapsed) / SNIPER_SECONDS);
    }

    function _beforeInitialize(address sender, PoolKey calldata key, uint160) internal override returns (bytes4) {
        if (sender != factory) revert OnlyFactory();
        PoolConfig storage c = _configs[key.toId()];
        if (!c.registered) revert PoolNotRegistered();
        c.launchedAt = uint64(block.timestamp);
        return this.beforeInitialize.selector;
    }

    function _beforeAddLiquidity(address sender, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata)
        internal
        view
        override
        returns (bytes4)
    {
        if (sender != factory) revert OnlyFactory();
        return this.beforeAddLiquidity.selector;
    }

    /// @dev "The liquidity can never be removed" (token-deployments.md).
    function _beforeRemoveLiquidity(address, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata)
        internal
        pure
        override
        returns (bytes4)
    {
        revert LiquidityLocked();
    }

    function _beforeSwap(address, PoolKey calldata key, SwapParams calldata params, bytes calldata)
        internal
        override
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        PoolId poolId = key.toId();
        PoolConfig memory c = _configs[poolId];
        if (!c.registered) revert PoolNotRegistered();
        if (params.amountSpecified >= 0) revert ExactOutputNotSupported();
        bool buy = params.zeroForOne == c.pairIsCurrency0;
        if (!buy) return (this.beforeSwap.selector, BeforeSwapDeltaLibrary.ZERO_DELTA, 0);
        // The buy tax on the input: the pool swaps what remains.
        uint256 amountIn = uint256(-params.amountSpecified);
        uint256 taken = (amountIn * feeAt(poolId, true, block.timestamp)) / PIPS;
        if (taken > 0) {
            Currency pair = c.pairIsCurrency0 ? key.currency0 : key.currency1;
            // Claims, not a transfer: the pool may hold none of the pair token yet.
            poolManager.mint(address(this), pair.toId(), taken);
        }
        return (this.beforeSwap.selector, toBeforeSwapDelta(int128(int256(taken)), 0), 0);
    }

    function _afterSwap(address, PoolKey calldata key, SwapParams calldata params, BalanceDelta delta, bytes calldata)
        internal
        override
        returns (bytes4, int128)
    {
        PoolId poolId = key.toId();
        PoolConfig memory c = _configs[poolId];
        bool buy = params.zeroForOne == c.pairIsCurrency0;
        if (buy) return (this.afterSwap.selector, 0);
        // A sell: the sell tax on the pair-token output (the unspecified currency of an exact-input sell).
        int128 out = c.pairIsCurrency0 ? delta.amount0() : delta.amount1();
        if (out <= 0) return (this.afterSwap.selector, 0);
        uint256 taken = (uint256(uint128(out)) * feeAt(poolId, false, block.timestamp)) / PIPS;
        if (taken > 0) {
            Currency pair = c.pairIsCurrency0 ? key.currency0 : key.currency1;
            poolManager.mint(address(this), pair.toId(), taken);
        }
        return (this.afterSwap.selector, int128(int256(taken)));
    }
}
