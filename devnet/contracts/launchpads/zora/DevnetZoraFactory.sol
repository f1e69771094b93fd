// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {DevnetLinearFeeLaunchpad} from "../DevnetLinearFeeLaunchpad.sol";
import {DevnetZoraHook} from "./DevnetZoraHook.sol";
import {DevnetZoraCoin} from "./DevnetZoraCoin.sol";

/// @notice Devnet Zora coin factory: a 1B-supply coin in a dynamic-fee v4 pool with DevnetZoraHook, the pool
/// initialised before the launch event (caller = msg.sender, poolKeyHash = the PoolId), as on Base
/// (ourzora/zora-protocol packages/coins/src/ZoraFactoryImpl.sol): a content coin (`deploy`) pairs with native ETH
/// (`currency = address(0)`) or ZORA and emits CoinCreatedV4; a creator coin (`deployCreatorCoin`) pairs with ZORA and
/// emits CreatorCoinCreated instead (same fields). ZORA here is the devnet's stand-in token, traded against ETH in a
/// plain v4 pool the devnet deploys beside this factory.
/// A content coin may also pair with a creator coin launched here (ZORA -> creator coin -> content coin).
/// Coins answer the real `getPoolKey()` and `currency()` (DevnetZoraCoin).
/// Simplified: no initial-supply purchase after the event, no reward
/// split, no vesting of a creator coin's share; the launch fee is the hook's fixed schedule (99% -> 1% over 10 s,
/// libs/CoinConstants.sol), as on Base. The entry points take a struct instead of the real parameter lists.
contract DevnetZoraFactory is DevnetLinearFeeLaunchpad {
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
        DevnetZoraHook(address(hook)).setFloorFee(key.toId(), TREND_LP_FEE);
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
    }

    function _createToken(string calldata name, string calldata symbol, bytes32 salt) internal override returns (address) {
        return address(new DevnetZoraCoin{salt: salt}(name, symbol, TOKEN_SUPPLY, address(this)));
    }
}
