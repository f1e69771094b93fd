// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {ModifyLiquidityParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {LiquidityAmounts} from "@uniswap/v4-periphery/src/libraries/LiquidityAmounts.sol";
import {DevnetLaunchToken} from "./DevnetLaunchToken.sol";

/// @notice What the three devnet launchpads share: create the token, initialise a real v4 pool against the paired
/// asset (the launchpad's `pairedToken`, WETH or native ETH = address(0), which always sorts first; a Zora launch may
/// name another one) and put the whole supply into it as single-sided liquidity, in one transaction, like the real ones.
abstract contract DevnetLaunchpadBase is IUnlockCallback {
    IPoolManager public immutable poolManager;
    address public immutable pairedToken;

    error OnlyPoolManager();

    constructor(IPoolManager poolManager_, address pairedToken_) {
        poolManager = poolManager_;
        pairedToken = pairedToken_;
    }

    function _poolKeyFor(address token, uint24 fee, int24 tickSpacing, IHooks hook)
        internal
        view
        returns (PoolKey memory key)
    {
        key = _poolKeyWith(token, pairedToken, fee, tickSpacing, hook);
    }

    function _poolKeyWith(address token, address paired, uint24 fee, int24 tickSpacing, IHooks hook)
        internal
        pure
        returns (PoolKey memory key)
    {
        bool tokenIs0 = token < paired;
        key = PoolKey({
            currency0: Currency.wrap(tokenIs0 ? token : paired),
            currency1: Currency.wrap(tokenIs0 ? paired : token),
            fee: fee,
            tickSpacing: tickSpacing,
            hooks: hook
        });
    }

    /// @dev `startingTick` is the token's price in paired-token units expressed as if the token were currency0 (the
    /// Clanker convention); it is negated when the token sorts after the paired token.
    function _launchPool(PoolKey memory key, address token, uint256 amount, int24 startingTick)
        internal
        returns (int24 tick)
    {
        bool tokenIs0 = Currency.unwrap(key.currency0) == token;
        tick = tokenIs0 ? startingTick : -startingTick;
        poolManager.initialize(key, TickMath.getSqrtPriceAtTick(tick));
        _addLiquidity(key, token, amount, startingTick);
    }

    /// @dev The whole `amount` of the token into an initialised pool at `startingTick` (same convention as _launchPool).
    function _addLiquidity(PoolKey memory key, address token, uint256 amount, int24 startingTick) internal {
        bool tokenIs0 = Currency.unwrap(key.currency0) == token;
        int24 tickSpacing = key.tickSpacing;
        int24 tick = tokenIs0 ? startingTick : -startingTick;
        uint160 sqrtPrice = TickMath.getSqrtPriceAtTick(tick);

        // Single-sided: the range starts at the current price and extends away from it in the direction buys move it.
        int24 lower;
        int24 upper;
        uint128 liquidity;
        if (tokenIs0) {
            lower = tick;
            upper = TickMath.maxUsableTick(tickSpacing);
            liquidity = LiquidityAmounts.getLiquidityForAmount0(sqrtPrice, TickMath.getSqrtPriceAtTick(upper), amount);
        } else {
            lower = TickMath.minUsableTick(tickSpacing);
            upper = tick;
            liquidity = LiquidityAmounts.getLiquidityForAmount1(TickMath.getSqrtPriceAtTick(lower), sqrtPrice, amount);
        }
        poolManager.unlock(abi.encode(key, lower, upper, liquidity));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager)) revert OnlyPoolManager();
        (PoolKey memory key, int24 lower, int24 upper, uint128 liquidity) =
            abi.decode(data, (PoolKey, int24, int24, uint128));
        (BalanceDelta delta,) = poolManager.modifyLiquidity(
            key,
            ModifyLiquidityParams({
                tickLower: lower,
                tickUpper: upper,
                liquidityDelta: int256(uint256(liquidity)),
                salt: bytes32(0)
            }),
            ""
        );
        _pay(key.currency0, delta.amount0());
        _pay(key.currency1, delta.amount1());
        return "";
    }

    function _pay(Currency currency, int128 amount) private {
        if (amount >= 0) return;
        poolManager.sync(currency);
        DevnetLaunchToken(Currency.unwrap(currency)).transfer(address(poolManager), uint256(uint128(-amount)));
        poolManager.settle();
    }
}
