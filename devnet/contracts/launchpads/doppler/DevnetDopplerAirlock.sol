// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {DevnetLinearFeeLaunchpad} from "../DevnetLinearFeeLaunchpad.sol";
import {DevnetDopplerHook} from "./DevnetDopplerHook.sol";
import {DevnetDopplerHookInitializer} from "./DevnetDopplerHookInitializer.sol";
import {DevnetRehypeDopplerHook} from "./DevnetRehypeDopplerHook.sol";
import {DevnetLaunchToken} from "../DevnetLaunchToken.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";

/// @notice Devnet Doppler Airlock: one call creates the asset, a dynamic-fee v4 pool against the numeraire (WETH, or
/// native ETH as address(0)) with
/// DevnetDopplerHook and the supply as liquidity, and emits the real Airlock's Create event. The Airlock is its own
/// pool initializer here (real Doppler uses a separate initializer contract).
///
/// Imitates whetstoneresearch/doppler src/Airlock.sol with a v4 multicurve initializer
/// (legacy/src/initializers/DecayMulticurveInitializer*.sol): `Create`'s `poolOrHook` is what the initializer returns,
/// and every v4 multicurve initializer returns the ASSET ("Uniswap V4 pools don't have addresses"); the pool is found
/// from the PoolManager's Initialize in the same transaction. getAssetData(asset) keeps the real field layout, with
/// the NoOp governance Bankr launches use: `timelock` and `governance` are 0xdead, `pool` the asset.
/// `creator` names nobody on chain (the real Create has no creator field either): the deployer is the sender.
/// `rehype` launches as Bankr's pools since about March 2026 (src/initializers/DopplerHookInitializer.sol with
/// src/dopplerHooks/RehypeDopplerHookInitializer.sol): the pool's hook is DevnetDopplerHookInitializer (named as
/// `initializer` in Create), the LP fee is the pool's stored dynamic fee (REHYPE_LP_FEE), and the decaying schedule is
/// DevnetRehypeDopplerHook's, taken from the output; its FeeScheduleSet comes from that contract.
contract DevnetDopplerAirlock is DevnetLinearFeeLaunchpad {
    int24 public constant TICK_SPACING = 60;
    /// NoOpGovernanceFactory's marker (src/governance/NoOpGovernanceFactory.sol): no timelock, no governance.
    address internal constant NO_OP_GOVERNANCE = 0x000000000000000000000000000000000000dEaD;
    int24 public constant STARTING_TICK = -207_360; // ~1e-9 WETH per token: ~1 ETH FDV
    /// @notice The rehype pool's LP fee (Bankr describes its pools as a 0.7% pool fee plus the hook's legs).
    uint24 public constant REHYPE_LP_FEE = 7_000;

    DevnetDopplerHookInitializer public immutable rehypeInitializer;
    DevnetRehypeDopplerHook public immutable rehypeHook;

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
        // a rehype pool (DopplerHookInitializer + rehype Doppler hook) instead of a decay-multicurve one
        bool rehype;
        // the numeraire: WETH (Bankr's) or native ETH, address(0) (both exist on Base)
        address numeraire;
    }

    mapping(address => AssetData) public getAssetData;

    event Create(address asset, address indexed numeraire, address initializer, address poolOrHook);

    constructor(
        IPoolManager poolManager_,
        address weth,
        DevnetDopplerHook hook_,
        DevnetDopplerHookInitializer rehypeInitializer_,
        DevnetRehypeDopplerHook rehypeHook_,
        uint24 startFee,
        uint24 endFee,
        uint32 durationSeconds
    ) DevnetLinearFeeLaunchpad(poolManager_, weth, hook_, startFee, endFee, durationSeconds) {
        rehypeInitializer = rehypeInitializer_;
        rehypeHook = rehypeHook_;
    }

    error UnsupportedNumeraire(address numeraire);

    function create(CreateParams calldata p) external returns (address asset) {
        if (p.numeraire != pairedToken && p.numeraire != address(0)) revert UnsupportedNumeraire(p.numeraire);
        if (p.rehype) asset = _launchRehype(p);
        else (asset,) = _launchLinear(p.numeraire, p.name, p.symbol, p.salt, p.startFee, p.endFee, p.durationSeconds, TICK_SPACING, STARTING_TICK);
        address initializer = p.rehype ? address(rehypeInitializer) : address(this);
        getAssetData[asset] = AssetData({
            numeraire: p.numeraire,
            timelock: NO_OP_GOVERNANCE,
            governance: NO_OP_GOVERNANCE,
            liquidityMigrator: address(0),
            poolInitializer: initializer,
            pool: asset,
            migrationPool: address(0),
            numTokensToSell: TOKEN_SUPPLY,
            totalSupply: TOKEN_SUPPLY,
            integrator: msg.sender
        });
        emit Create(asset, p.numeraire, initializer, asset);
    }

    function _launchRehype(CreateParams calldata p) private returns (address asset) {
        asset = address(new DevnetLaunchToken{salt: p.salt}(p.name, p.symbol, TOKEN_SUPPLY, address(this)));
        PoolKey memory key = _poolKeyWith(asset, p.numeraire, LPFeeLibrary.DYNAMIC_FEE_FLAG, TICK_SPACING, IHooks(address(rehypeInitializer)));
        bool useDefaults = p.startFee == 0 && p.endFee == 0 && p.durationSeconds == 0;
        // The pool first (the initializer can only set the LP fee of an initialised pool), then its fee and schedule,
        // then the liquidity.
        bool tokenIs0 = Currency.unwrap(key.currency0) == asset;
        poolManager.initialize(key, TickMath.getSqrtPriceAtTick(tokenIs0 ? STARTING_TICK : -STARTING_TICK));
        rehypeInitializer.initializePool(key, REHYPE_LP_FEE);
        rehypeHook.register(
            key.toId(),
            useDefaults ? defaultStartFee : p.startFee,
            useDefaults ? defaultEndFee : p.endFee,
            useDefaults ? defaultDurationSeconds : p.durationSeconds
        );
        _addLiquidity(key, asset, TOKEN_SUPPLY, STARTING_TICK);
    }
}
