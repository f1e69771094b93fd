// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {ModifyLiquidityParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {LiquidityAmounts} from "@uniswap/v4-periphery/src/libraries/LiquidityAmounts.sol";
import {DevnetLinearFeeHook} from "../DevnetLinearFeeHook.sol";
import {DevnetLaunchToken} from "../DevnetLaunchToken.sol";
import {BurnedPosition, IDevnetZoraLiquidityHolder, IDevnetZoraUpgradeableHook} from "./IDevnetZoraUpgradeableHook.sol";
import {DevnetZoraCoin} from "./DevnetZoraCoin.sol";

/// @notice Devnet stand-in for Zora's coin hook launch fee (hooks/ZoraV4CoinHook.sol): linear from startFee to endFee
/// over durationSeconds from the coin's creation, then endFee (on Base 99% -> 1% over 10 s). Like the real hook it
/// exposes no schedule view: the adapter prices Zora's documented constant schedule.
/// A trend coin's fee after the launch fee is TREND_LP_FEE_V4 = 100 (0.01%) instead of 1% (the real
/// `_calculateLaunchFee`: once `elapsed >= LAUNCH_FEE_DURATION`, `coinType() == Trend` gives the trend fee; during the
/// decay the slope still runs toward 1%): `floorFee` is that fee for the pools the factory marks.
///
/// Liquidity migration, point by point as ZoraV4CoinHook.migrateLiquidity / initializeFromMigrationWithUpdateableFee
/// and V4Liquidity.lockAndMigrate (ourzora/zora-protocol packages/coins/src, commit
/// 5f2aebad34f77990345b2a77f9a1170e39e7b1dc): only the pool's coin may migrate (`OnlyCoin`), only along an upgrade path
/// registered in the gate (`UpgradePathNotRegistered`, checked by both hooks); the old pool's positions are burned at its
/// current price and everything they return goes to the new hook; the new hook initialises a pool with the same
/// currencies, ITSELF as hook, **fee LP_FEE_V4 = 10,000 (a static 1%: no dynamic-fee flag) and tick spacing 200**
/// (CoinConstants.sol), at the old pool's sqrtPriceX96, and mints the same tick ranges with the liquidity those amounts
/// give; the old hook forgets the pool (`delete poolCoins[...]`: a user swap there reverts, `NoCoinForHook` on Base,
/// `PoolNotRegistered` here). The new pool's launch fee is still computed from the coin's creation time, but v4 ignores
/// a hook's fee override on a pool without the dynamic-fee flag (v4-core Hooks.beforeSwap), so it charges its static 1%.
/// Simplified: the gate is each hook's own admin-kept table (the real one is a shared HookUpgradeGate); the factory,
/// not the hook, holds a launch's liquidity, so the old hook asks it to burn it (IDevnetZoraLiquidityHolder); a pool
/// that was itself migrated in cannot migrate again; no fee collection or reward minting around the migration.
contract DevnetZoraHook is DevnetLinearFeeHook, IDevnetZoraUpgradeableHook, IUnlockCallback {
    using StateLibrary for IPoolManager;

    error InvalidLaunchFee();
    error OnlyCoin(address caller, address expectedCoin);
    error NotImplementedOnDevnet();

    /// @notice CoinConstants.sol LP_FEE_V4 and TICK_SPACING: a migrated pool's key fee and spacing.
    uint24 public constant LP_FEE_V4 = 10_000;
    int24 public constant TICK_SPACING = 200;

    /// @notice The fee once the launch fee is over, where it differs from the schedule's end fee (trend coins: 100).
    mapping(PoolId => uint24) public floorFee;
    /// @notice The coin of each pool this hook serves (the real `poolCoins[poolKeyHash].coin`).
    mapping(PoolId => address) public poolCoin;
    /// @notice Pools this hook holds the liquidity of (migrated in), not the launchpad.
    mapping(PoolId => bool) public holdsLiquidity;
    /// @notice The upgrade gate (HookUpgradeGate.isRegisteredUpgradePath), kept by the admin.
    mapping(address => mapping(address => bool)) public isRegisteredUpgradePath;

    uint8 private constant MIGRATE_CALLBACK = 1;
    uint8 private constant MINT_CALLBACK = 2;

    constructor(IPoolManager poolManager_, address admin_) DevnetLinearFeeHook(poolManager_, admin_) {}

    function setFloorFee(PoolId poolId, uint24 fee) external onlyLaunchpad {
        floorFee[poolId] = fee;
    }

    function setPoolCoin(PoolId poolId, address coin) external onlyLaunchpad {
        poolCoin[poolId] = coin;
    }

    function registerUpgradePath(address oldHook, address newHook) external {
        if (msg.sender != admin) revert OnlyAdmin();
        isRegisteredUpgradePath[oldHook][newHook] = true;
    }

    function feeAt(PoolId poolId, uint256 timestamp) public view override returns (uint24) {
        LinearFee memory f = linearFees[poolId];
        uint24 floor = floorFee[poolId];
        if (floor != 0 && timestamp >= uint256(f.startingTime) + f.durationSeconds) return floor;
        return super.feeAt(poolId, timestamp);
    }

    function registerPool(PoolId poolId, LinearFee calldata fee) external override onlyLaunchpad {
        if (fee.startFee > LPFeeLibrary.MAX_LP_FEE || fee.startFee < fee.endFee || fee.durationSeconds == 0) {
            revert InvalidLaunchFee();
        }
        linearFees[poolId] = fee;
    }

    /// @inheritdoc IDevnetZoraUpgradeableHook
    function migrateLiquidity(address newHook, PoolKey memory poolKey, bytes calldata additionalData)
        external
        returns (PoolKey memory newPoolKey)
    {
        PoolId poolId = poolKey.toId();
        address coin = poolCoin[poolId];
        if (coin != msg.sender) revert OnlyCoin(msg.sender, coin);
        if (!isRegisteredUpgradePath[address(this)][newHook]) revert UpgradePathNotRegistered(address(this), newHook);
        if (holdsLiquidity[poolId]) revert NotImplementedOnDevnet();

        (uint160 sqrtPriceX96,,,) = poolManager.getSlot0(poolId);
        BurnedPosition[] memory burned = new BurnedPosition[](1);
        burned[0] = abi.decode(poolManager.unlock(abi.encode(MIGRATE_CALLBACK, abi.encode(poolKey, newHook))), (BurnedPosition));

        newPoolKey.currency0 = poolKey.currency0;
        newPoolKey.currency1 = poolKey.currency1;
        newPoolKey.hooks = IHooks(newHook);
        (newPoolKey.fee, newPoolKey.tickSpacing) = IDevnetZoraUpgradeableHook(newHook).initializeFromMigrationWithUpdateableFee(
            poolKey, coin, sqrtPriceX96, burned, additionalData
        );

        // Forget the migrated pool: no later swap there is served.
        delete poolCoin[poolId];
        delete linearFees[poolId];
        delete floorFee[poolId];
    }

    /// @inheritdoc IDevnetZoraUpgradeableHook
    function initializeFromMigrationWithUpdateableFee(
        PoolKey calldata poolKey,
        address coin,
        uint160 sqrtPriceX96,
        BurnedPosition[] calldata migratedLiquidity,
        bytes calldata
    ) external returns (uint24 fee, int24 tickSpacing) {
        if (!isRegisteredUpgradePath[msg.sender][address(this)]) revert UpgradePathNotRegistered(msg.sender, address(this));
        fee = LP_FEE_V4;
        tickSpacing = TICK_SPACING;
        PoolKey memory newKey = PoolKey({
            currency0: poolKey.currency0, currency1: poolKey.currency1, fee: fee, tickSpacing: tickSpacing, hooks: IHooks(address(this))
        });
        poolManager.initialize(newKey, sqrtPriceX96);
        PoolId newId = newKey.toId();
        // The launch fee from the coin's creation, as the real `_calculateLaunchFee(coin)` (ignored by v4 on this
        // static-fee key, see above; registered so beforeSwap serves the pool).
        (uint256 created,) = DevnetZoraCoin(coin).creationInfo();
        linearFees[newId] = LinearFee({startingTime: uint32(created), startFee: 990_000, endFee: 10_000, durationSeconds: 10});
        poolCoin[newId] = coin;
        holdsLiquidity[newId] = true;
        for (uint256 i = 0; i < migratedLiquidity.length; i++) {
            BurnedPosition calldata p = migratedLiquidity[i];
            uint128 liquidity = LiquidityAmounts.getLiquidityForAmounts(
                sqrtPriceX96, TickMath.getSqrtPriceAtTick(p.tickLower), TickMath.getSqrtPriceAtTick(p.tickUpper), p.amount0Received, p.amount1Received
            );
            if (liquidity > 0) poolManager.unlock(abi.encode(MINT_CALLBACK, abi.encode(newKey, p.tickLower, p.tickUpper, liquidity)));
        }
    }

    function unlockCallback(bytes calldata data) external onlyPoolManager returns (bytes memory) {
        (uint8 id, bytes memory inner) = abi.decode(data, (uint8, bytes));
        if (id == MIGRATE_CALLBACK) {
            (PoolKey memory key, address newHook) = abi.decode(inner, (PoolKey, address));
            return abi.encode(IDevnetZoraLiquidityHolder(launchpad).burnLaunchLiquidity(key, newHook));
        }
        (PoolKey memory newKey, int24 lower, int24 upper, uint128 liquidity) = abi.decode(inner, (PoolKey, int24, int24, uint128));
        (BalanceDelta delta,) = poolManager.modifyLiquidity(
            newKey, ModifyLiquidityParams({tickLower: lower, tickUpper: upper, liquidityDelta: int256(uint256(liquidity)), salt: bytes32(0)}), ""
        );
        // Native ETH (currency0 when it is paired) is settled first, before any sync of an ERC-20.
        _pay(newKey.currency0, delta.amount0());
        _pay(newKey.currency1, delta.amount1());
        return "";
    }

    function _pay(Currency currency, int128 amount) private {
        if (amount >= 0) return;
        uint256 owed = uint256(uint128(-amount));
        if (currency.isAddressZero()) {
            poolManager.settle{value: owed}();
            return;
        }
        poolManager.sync(currency);
        DevnetLaunchToken(Currency.unwrap(currency)).transfer(address(poolManager), owed);
        poolManager.settle();
    }

    /// @notice Native ETH from a migrated ETH-backed pool (the real hook's `receive() onlyPoolManager`).
    receive() external payable onlyPoolManager {}
}
