// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {DevnetLinearFeeLaunchpad} from "../DevnetLinearFeeLaunchpad.sol";
import {DevnetDopplerHook} from "./DevnetDopplerHook.sol";

/// @notice Devnet Doppler Airlock: one call creates the asset, a dynamic-fee v4 pool against the numeraire (WETH) with
/// DevnetDopplerHook and the supply as liquidity, and emits the real Airlock's Create event. The Airlock is its own
/// pool initializer here (real Doppler uses a separate initializer contract).
///
/// getAssetData(asset) keeps the real Airlock's field layout so one ABI reads both; on devnet there is no governance
/// or migration, so `timelock` and `governance` hold the creator and `integrator` the caller that launched for them.
contract DevnetDopplerAirlock is DevnetLinearFeeLaunchpad {
    int24 public constant TICK_SPACING = 60;
    int24 public constant STARTING_TICK = -207_360; // ~1e-9 WETH per token: ~1 ETH FDV

    struct AssetData {
        address numeraire;
        address timelock;
        address governance;
        address liquidityMigrator;
        address poolInitializer;
        address pool;
        address migrationPool;
        uint256 numTokensToSell;
        uint256 totalSupply;
        address integrator;
    }

    struct CreateParams {
        string name;
        string symbol;
        address creator;
        // all three zero: use the airlock defaults
        uint24 startFee;
        uint24 endFee;
        uint32 durationSeconds;
        // CREATE2 salt of the asset (Doppler's token factory also deploys with a salt)
        bytes32 salt;
    }

    mapping(address => AssetData) public getAssetData;

    event Create(address asset, address indexed numeraire, address initializer, address poolOrHook);

    constructor(
        IPoolManager poolManager_,
        address weth,
        DevnetDopplerHook hook_,
        uint24 startFee,
        uint24 endFee,
        uint32 durationSeconds
    ) DevnetLinearFeeLaunchpad(poolManager_, weth, hook_, startFee, endFee, durationSeconds) {}

    function create(CreateParams calldata p) external returns (address asset) {
        (asset,) = _launchLinear(p.name, p.symbol, p.salt, p.startFee, p.endFee, p.durationSeconds, TICK_SPACING, STARTING_TICK);
        getAssetData[asset] = AssetData({
            numeraire: pairedToken,
            timelock: p.creator,
            governance: p.creator,
            liquidityMigrator: address(0),
            poolInitializer: address(this),
            pool: address(hook),
            migrationPool: address(0),
            numTokensToSell: TOKEN_SUPPLY,
            totalSupply: TOKEN_SUPPLY,
            integrator: msg.sender
        });
        emit Create(asset, pairedToken, address(this), address(hook));
    }
}
