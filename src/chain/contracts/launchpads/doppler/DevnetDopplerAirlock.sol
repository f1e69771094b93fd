// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {DevnetLinearFeeLaunchpad} from "../DevnetLinearFeeLaunchpad.sol";
import {DevnetDopplerHook} from "./DevnetDopplerHook.sol";

/// @notice Devnet Doppler Airlock: one call creates the asset, a dynamic-fee v4 pool against the numeraire (WETH) with
/// DevnetDopplerHook and the supply as liquidity, and emits the real Airlock's Create event. The Airlock is its own
/// pool initializer here (real Doppler uses a separate initializer contract).
///
/// Imitates whetstoneresearch/doppler src/Airlock.sol with a v4 multicurve initializer
/// (legacy/src/initializers/DecayMulticurveInitializer*.sol): `Create`'s `poolOrHook` is what the initializer returns,
/// and every v4 multicurve initializer returns the ASSET ("Uniswap V4 pools don't have addresses"); the pool is found
/// from the PoolManager's Initialize in the same transaction. getAssetData(asset) keeps the real field layout, with
/// the NoOp governance Bankr launches use: `timelock` and `governance` are 0xdead, `pool` the asset.
/// `creator` names nobody on chain (the real Create has no creator field either): the deployer is the sender.
contract DevnetDopplerAirlock is DevnetLinearFeeLaunchpad {
    int24 public constant TICK_SPACING = 60;
    /// NoOpGovernanceFactory's marker (src/governance/NoOpGovernanceFactory.sol): no timelock, no governance.
    address internal constant NO_OP_GOVERNANCE = 0x000000000000000000000000000000000000dEaD;
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
            timelock: NO_OP_GOVERNANCE,
            governance: NO_OP_GOVERNANCE,
            liquidityMigrator: address(0),
            poolInitializer: address(this),
            pool: asset,
            migrationPool: address(0),
            numTokensToSell: TOKEN_SUPPLY,
            totalSupply: TOKEN_SUPPLY,
            integrator: msg.sender
        });
        emit Create(asset, pairedToken, address(this), asset);
    }
}
