// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {BalanceDelta, BalanceDeltaLibrary} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {ModifyLiquidityParams, SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {DevnetDecayingFeeHook} from "../DevnetDecayingFeeHook.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";

/// @notice The plugin interface of Doppler's DopplerHookInitializer (whetstoneresearch/doppler
/// src/base/BaseDopplerHookInitializer.sol, src/interfaces/IDopplerHookInitializer.sol).
interface IDevnetDopplerHook {
    function onInitialization(address asset, PoolKey calldata key, bytes calldata data) external;
    function onSwap(address sender, PoolKey calldata key, SwapParams calldata params, BalanceDelta delta, bytes calldata data)
        external
        returns (Currency feeCurrency, int128 hookDelta);
}

/// @notice Devnet stand-in for Doppler's DopplerHookInitializer (whetstoneresearch/doppler
/// src/initializers/DopplerHookInitializer.sol): the pool's `hooks`, with an optional per-pool plugin (a "Doppler
/// hook": rehype, the swap restrictor, ...) enabled beforehand by the admin (`setDopplerHookState` with the real flags
/// ON_INITIALIZATION_FLAG = 1, ON_SWAP_FLAG = 2, src/base/BaseDopplerHookInitializer.sol).
/// As the real `initialize`/`_initialize`: with a plugin the pool key carries the dynamic-fee flag and the pool's LP fee
/// is set once with `updateDynamicLPFee` (never overridden per swap); WITHOUT a plugin the key's fee is the static LP
/// fee itself and nothing else is charged (no FeeScheduleSet anywhere). The plugin's `onInitialization` runs at launch,
/// its `onSwap` after every swap: a returned fee is taken in the fee currency (rehype: from an exact-input swap's
/// OUTPUT), a revert reverts the swap (the swap restrictor). `getState(asset)` is the real public getter's shape (the
/// real struct's two arrays, which a public getter omits, are left out), `getAsset(poolId)` too. Its permissions, so
/// its address bits, are the real ones (beforeInitialize, afterAddLiquidity, afterRemoveLiquidity, afterSwap,
/// afterSwapReturnDelta), and it emits the real ModifyLiquidity and Swap events.
/// Simplified: the Airlock (its launchpad) initialises the pool and adds the liquidity, not the initializer itself; the
/// fee is taken straight to the plugin (the real one takes it and settles it for the plugin: same for the swapper).
contract DevnetDopplerHookInitializer is DevnetDecayingFeeHook {
    uint256 public constant ON_INITIALIZATION_FLAG = 1 << 0;
    uint256 public constant ON_SWAP_FLAG = 1 << 1;

    /// @notice The real PoolState as its public getter returns it (status: Uninitialized 0, Initialized 1, Locked 2).
    struct PoolState {
        address numeraire;
        uint256 totalTokensOnBondingCurve;
        address dopplerHook;
        bytes graduationDopplerHookCalldata;
        uint8 status;
        PoolKey poolKey;
        int24 farTick;
    }

    mapping(address dopplerHook => uint256 flags) public isDopplerHookEnabled;
    mapping(address asset => PoolState state) public getState;
    mapping(PoolId poolId => address asset) public getAsset;

    event SetDopplerHookState(address indexed dopplerHook, uint256 indexed flag);
    event ModifyLiquidity(PoolKey key, ModifyLiquidityParams params);
    event Swap(
        address indexed sender,
        PoolKey indexed poolKey,
        PoolId indexed poolId,
        SwapParams params,
        int128 amount0,
        int128 amount1,
        bytes hookData
    );

    error OnlyInitializer();
    error DopplerHookNotEnabled();
    error ArrayLengthsMismatch();

    constructor(IPoolManager poolManager_, address admin_) DevnetDecayingFeeHook(poolManager_, admin_) {}

    function getHookPermissions() public pure override returns (Hooks.Permissions memory p) {
        p.beforeInitialize = true;
        p.afterAddLiquidity = true;
        p.afterRemoveLiquidity = true;
        p.afterSwap = true;
        p.afterSwapReturnDelta = true;
    }

    /// @notice Enables plugins with their flags (the real one: only the Airlock's owner).
    function setDopplerHookState(address[] calldata dopplerHooks, uint256[] calldata flags) external {
        if (msg.sender != admin) revert OnlyAdmin();
        if (dopplerHooks.length != flags.length) revert ArrayLengthsMismatch();
        for (uint256 i = 0; i < dopplerHooks.length; i++) {
            isDopplerHookEnabled[dopplerHooks[i]] = flags[i];
            emit SetDopplerHookState(dopplerHooks[i], flags[i]);
        }
    }

    /// @dev The real one lets only itself initialise its pools; here its launchpad does.
    function _beforeInitialize(address sender, PoolKey calldata, uint160) internal view override returns (bytes4) {
        if (sender != launchpad) revert OnlyInitializer();
        return this.beforeInitialize.selector;
    }

    function _afterAddLiquidity(address, PoolKey calldata key, ModifyLiquidityParams calldata params, BalanceDelta, BalanceDelta, bytes calldata)
        internal
        override
        returns (bytes4, BalanceDelta)
    {
        emit ModifyLiquidity(key, params);
        return (this.afterAddLiquidity.selector, BalanceDeltaLibrary.ZERO_DELTA);
    }

    function _afterRemoveLiquidity(address, PoolKey calldata key, ModifyLiquidityParams calldata params, BalanceDelta, BalanceDelta, bytes calldata)
        internal
        override
        returns (bytes4, BalanceDelta)
    {
        emit ModifyLiquidity(key, params);
        return (this.afterRemoveLiquidity.selector, BalanceDeltaLibrary.ZERO_DELTA);
    }

    /// @notice Records an initialised pool of `asset` as the real `initialize` does: with a plugin, the pool's dynamic LP
    /// fee is set to `lpFee` (the key then carries the dynamic-fee flag) and the plugin's onInitialization runs.
    function initializePool(address asset, address numeraire, PoolKey calldata key, uint24 lpFee, address dopplerHook, bytes calldata data)
        external
        onlyLaunchpad
    {
        uint256 flags = isDopplerHookEnabled[dopplerHook];
        if (dopplerHook != address(0)) {
            if (flags == 0) revert DopplerHookNotEnabled();
            poolManager.updateDynamicLPFee(key, lpFee);
        }
        PoolId poolId = key.toId();
        getAsset[poolId] = asset;
        getState[asset] = PoolState(numeraire, 0, dopplerHook, "", 1, key, 0);
        if (flags & ON_INITIALIZATION_FLAG != 0) IDevnetDopplerHook(dopplerHook).onInitialization(asset, key, data);
    }

    function _afterSwap(address sender, PoolKey calldata key, SwapParams calldata params, BalanceDelta delta, bytes calldata data)
        internal
        override
        returns (bytes4, int128 hookDelta)
    {
        PoolId poolId = key.toId();
        address asset = getAsset[poolId];
        if (asset == address(0)) revert PoolNotRegistered();
        address dopplerHook = getState[asset].dopplerHook;
        if (dopplerHook != address(0) && isDopplerHookEnabled[dopplerHook] & ON_SWAP_FLAG != 0) {
            Currency feeCurrency;
            (feeCurrency, hookDelta) = IDevnetDopplerHook(dopplerHook).onSwap(sender, key, params, delta, data);
            if (hookDelta > 0) poolManager.take(feeCurrency, dopplerHook, uint128(hookDelta));
        }
        emit Swap(sender, key, poolId, params, delta.amount0(), delta.amount1(), data);
        return (this.afterSwap.selector, hookDelta);
    }
}
