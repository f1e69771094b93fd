// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {DevnetLinearFeeLaunchpad} from "../DevnetLinearFeeLaunchpad.sol";
import {DevnetZoraHook} from "./DevnetZoraHook.sol";
import {DevnetZoraCoin} from "./DevnetZoraCoin.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {ModifyLiquidityParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {Position} from "@uniswap/v4-core/src/libraries/Position.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {BurnedPosition, IDevnetZoraLiquidityHolder} from "./IDevnetZoraUpgradeableHook.sol";

/// @notice Devnet Zora coin factory: a 1B-supply coin in a dynamic-fee v4 pool with DevnetZoraHook, the pool
/// initialised before the launch event (caller = msg.sender, poolKeyHash = the PoolId), as on Base
/// (ourzora/zora-protocol packages/coins/src/ZoraFactoryImpl.sol): a content coin (`deploy`) pairs with native ETH
/// (`currency = address(0)`) or ZORA and emits CoinCreatedV4; a creator coin (`deployCreatorCoin`) pairs with ZORA and
/// emits CreatorCoinCreated instead (same fields). ZORA here is the devnet's stand-in token, traded against ETH in a
/// plain v4 pool the devnet deploys beside this factory.
/// A content coin may also pair with a creator coin launched here (ZORA -> creator coin -> content coin).
/// Coins answer the real `getPoolKey()` and `currency()` (DevnetZoraCoin); a content or creator coin's owner (the
/// deploy's caller here) may migrate its liquidity to a new hook (DevnetZoraCoin.migrateLiquidity): the factory holds
/// the launch liquidity on devnet, so it burns it for the pool's hook (burnLaunchLiquidity).
/// Simplified: no initial-supply purchase after the event, no reward
/// split, no vesting of a creator coin's share; the launch fee is the hook's fixed schedule (99% -> 1% over 10 s,
/// libs/CoinConstants.sol), as on Base. The entry points take a struct instead of the real parameter lists.
contract DevnetZoraFactory is DevnetLinearFeeLaunchpad, IDevnetZoraLiquidityHolder {
    using StateLibrary for IPoolManager;

    /// @notice The single-sided range each launch's liquidity was added in (DevnetLaunchpadBase._addLiquidity's), by pool.
    struct LaunchRange {
        int24 lower;
        int24 upper;
    }

    mapping(PoolId => LaunchRange) public launchRanges;

    error OnlyHook();
    int24 public constant TICK_SPACING = 200;
    int24 public constant STARTING_TICK = -207_400; // ~1e-9 ETH per coin: ~1 ETH FDV
    int24 public constant ZORA_STARTING_TICK = -92_200; // ~1e-4 ZORA per coin: ~100k ZORA FDV
    int24 public constant COIN_STARTING_TICK = 0; // ~1 creator coin per coin: an FDV like its creator coin's

    /// @notice Creator coins launched here: a content coin may pair with one of them.
    mapping(address => bool) public isCreatorCoin;

    /// @notice The ZORA token (on Base 0x1111111111166b7FE7bd91427724B487980aFc69).
    address public immutable zora;

    error UnsupportedCurrency(address currency);
    string public constant VERSION = "devnet-1";

    struct DeployParams {
        address payoutRecipient;
        address platformReferrer;
        string uri;
        string name;
        string symbol;
        // address(0) (native ETH), ZORA, or (a content coin) a creator coin of this factory; a creator coin pairs with ZORA
        address currency;
        // CREATE2 salt of the coin (Zora deploys coins deterministically too)
        bytes32 salt;
    }

    event CoinCreatedV4(
        address indexed caller,
        address indexed payoutRecipient,
        address indexed platformReferrer,
        address currency,
        string uri,
        string name,
        string symbol,
        address coin,
        PoolKey poolKey,
        bytes32 poolKeyHash,
        string version
    );

    event CreatorCoinCreated(
        address indexed caller,
        address indexed payoutRecipient,
        address indexed platformReferrer,
        address currency,
        string uri,
        string name,
        string symbol,
        address coin,
        PoolKey poolKey,
        bytes32 poolKeyHash,
        string version
    );

    constructor(
        IPoolManager poolManager_,
        address zora_,
        DevnetZoraHook hook_,
        uint24 startFee,
        uint24 endFee,
        uint32 durationSeconds
    ) DevnetLinearFeeLaunchpad(poolManager_, address(0), hook_, startFee, endFee, durationSeconds) {
        zora = zora_;
    }

    event TrendCoinCreated(address indexed caller, string symbol, address coin, PoolKey poolKey, bytes32 poolKeyHash, bytes poolConfig, string version);

    /// @notice Zora's trend-coin fee after the launch fee (libs/CoinConstants.sol TREND_LP_FEE_V4).
    uint24 public constant TREND_LP_FEE = 100;

    /// @notice A trend coin (ZoraFactoryImpl._createAndInitializeTrendCoin, 2.6.0): permissionless, named by its ticker
    /// alone, at an address derived from the ticker (the real one clones at `TickerUtils.tickerHash(symbol)`; here the
    /// CREATE2 salt is keccak256 of the symbol), paired with ZORA (CoinConstants.TREND_COIN_DEFAULT_POOL_CONFIG), owned
    /// by the factory's owner; announced by TrendCoinCreated; its fee is the launch fee, then 0.01%.
    function deployTrendCoin(string calldata symbol) external returns (address coin) {
        PoolKey memory key;
        (coin, key) = _launchLinear(zora, symbol, symbol, keccak256(bytes(symbol)), 0, 0, 0, TICK_SPACING, ZORA_STARTING_TICK);
        DevnetZoraCoin(coin).setPool(key, zora);
        _recordLaunch(coin, key, ZORA_STARTING_TICK);
        DevnetZoraHook(payable(address(hook))).setFloorFee(key.toId(), TREND_LP_FEE);
        emit TrendCoinCreated(msg.sender, symbol, coin, key, PoolId.unwrap(key.toId()), "", VERSION);
    }

    /// @notice A content coin paired with native ETH, ZORA or a creator coin.
    function deploy(DeployParams calldata p) external returns (address coin) {
        if (p.currency != address(0) && p.currency != zora && !isCreatorCoin[p.currency]) revert UnsupportedCurrency(p.currency);
        PoolKey memory key;
        (coin, key) = _launchCoin(p);
        emit CoinCreatedV4(
            msg.sender,
            p.payoutRecipient,
            p.platformReferrer,
            p.currency,
            p.uri,
            p.name,
            p.symbol,
            coin,
            key,
            PoolId.unwrap(key.toId()),
            VERSION
        );
    }

    /// @notice A creator coin: paired with ZORA, announced by CreatorCoinCreated.
    function deployCreatorCoin(DeployParams calldata p) external returns (address coin) {
        if (p.currency != zora) revert UnsupportedCurrency(p.currency);
        PoolKey memory key;
        (coin, key) = _launchCoin(p);
        isCreatorCoin[coin] = true;
        emit CreatorCoinCreated(
            msg.sender,
            p.payoutRecipient,
            p.platformReferrer,
            p.currency,
            p.uri,
            p.name,
            p.symbol,
            coin,
            key,
            PoolId.unwrap(key.toId()),
            VERSION
        );
    }

    // Zero fees: the factory's schedule, Zora's fixed launch fee (no caller chooses it).
    function _launchCoin(DeployParams calldata p) private returns (address coin, PoolKey memory key) {
        int24 startingTick = p.currency == address(0) ? STARTING_TICK : p.currency == zora ? ZORA_STARTING_TICK : COIN_STARTING_TICK;
        (coin, key) = _launchLinear(p.currency, p.name, p.symbol, p.salt, 0, 0, 0, TICK_SPACING, startingTick);
        DevnetZoraCoin(coin).setPool(key, p.currency);
        DevnetZoraCoin(coin).setOwner(msg.sender);
        _recordLaunch(coin, key, startingTick);
    }

    /// @dev The hook learns the pool's coin (who may migrate it); the factory keeps the range its liquidity is in.
    function _recordLaunch(address coin, PoolKey memory key, int24 startingTick) private {
        PoolId id = key.toId();
        DevnetZoraHook(payable(address(hook))).setPoolCoin(id, coin);
        bool tokenIs0 = Currency.unwrap(key.currency0) == coin;
        int24 tick = tokenIs0 ? startingTick : -startingTick;
        launchRanges[id] = tokenIs0
            ? LaunchRange({lower: tick, upper: TickMath.maxUsableTick(key.tickSpacing)})
            : LaunchRange({lower: TickMath.minUsableTick(key.tickSpacing), upper: tick});
    }

    /// @notice The pool's hook, migrating it inside its own unlock: burns the launch position (what is left of it,
    /// with its fees) and sends both currencies to `to`, the new hook (V4Liquidity._handleBurnAllPositionsCallback).
    function burnLaunchLiquidity(PoolKey calldata key, address to) external returns (BurnedPosition memory burned) {
        if (msg.sender != address(hook)) revert OnlyHook();
        PoolId id = key.toId();
        LaunchRange memory r = launchRanges[id];
        delete launchRanges[id];
        burned.tickLower = r.lower;
        burned.tickUpper = r.upper;
        uint128 liquidity = poolManager.getPositionLiquidity(id, Position.calculatePositionKey(address(this), r.lower, r.upper, bytes32(0)));
        if (liquidity == 0) return burned;
        (BalanceDelta delta,) = poolManager.modifyLiquidity(
            key, ModifyLiquidityParams({tickLower: r.lower, tickUpper: r.upper, liquidityDelta: -int256(uint256(liquidity)), salt: bytes32(0)}), ""
        );
        burned.amount0Received = uint128(delta.amount0());
        burned.amount1Received = uint128(delta.amount1());
        if (burned.amount0Received > 0) poolManager.take(key.currency0, to, burned.amount0Received);
        if (burned.amount1Received > 0) poolManager.take(key.currency1, to, burned.amount1Received);
    }

    function _createToken(string calldata name, string calldata symbol, bytes32 salt) internal override returns (address) {
        return address(new DevnetZoraCoin{salt: salt}(name, symbol, TOKEN_SUPPLY, address(this)));
    }
}
