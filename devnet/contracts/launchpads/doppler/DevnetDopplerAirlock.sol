// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {DevnetLinearFeeLaunchpad} from "../DevnetLinearFeeLaunchpad.sol";
import {DevnetDopplerHook} from "./DevnetDopplerHook.sol";
import {DevnetDopplerHookInitializer} from "./DevnetDopplerHookInitializer.sol";
import {DevnetDopplerERC20V1} from "./DevnetDopplerERC20V1.sol";
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
/// `hookInitializer` launches as src/initializers/DopplerHookInitializer.sol does (Bankr's pools since about March 2026):
/// the pool's hook is DevnetDopplerHookInitializer (named as `initializer` in Create) with the launch's plugin
/// (`dopplerHook`, its init data `dopplerHookData`): with a plugin the key has the dynamic-fee flag and `lpFee` is
/// the pool's stored LP fee (rehype: its decaying schedule is the plugin's, taken from the output, its FeeScheduleSet
/// comes from the plugin); without one the key's fee is `lpFee` itself, static, and nothing announces a schedule.
contract DevnetDopplerAirlock is DevnetLinearFeeLaunchpad {
    int24 public constant TICK_SPACING = 60;
    /// NoOpGovernanceFactory's marker (src/governance/NoOpGovernanceFactory.sol): no timelock, no governance.
    address internal constant NO_OP_GOVERNANCE = 0x000000000000000000000000000000000000dEaD;
    int24 public constant STARTING_TICK = -207_360; // ~1e-9 WETH per token: ~1 ETH FDV
    DevnetDopplerHookInitializer public immutable hookInitializer;

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
        // a DopplerHookInitializer pool instead of a decay-multicurve one, with its plugin (none: address(0)), the plugin's
        // init data and the pool's LP fee (Bankr's rehype pools: 0.7%, "a 0.7% pool fee plus the hook's legs")
        bool hookInitializer;
        address dopplerHook;
        bytes dopplerHookData;
        uint24 lpFee;
        // the numeraire: WETH (Bankr's) or native ETH, address(0) (both exist on Base)
        address numeraire;
        // a DopplerERC20V1 asset with a per-holder balance limit until balanceLimitEnd (both zero: a plain token)
        uint256 maxBalanceLimit;
        uint48 balanceLimitEnd;
    }

    mapping(address => AssetData) public getAssetData;

    event Create(address asset, address indexed numeraire, address initializer, address poolOrHook);

    constructor(
        IPoolManager poolManager_,
        address weth,
        DevnetDopplerHook hook_,
        DevnetDopplerHookInitializer hookInitializer_,
        uint24 startFee,
        uint24 endFee,
        uint32 durationSeconds
    ) DevnetLinearFeeLaunchpad(poolManager_, weth, hook_, startFee, endFee, durationSeconds) {
        hookInitializer = hookInitializer_;
    }

    error UnsupportedNumeraire(address numeraire);

    /// @dev The balance limit of the asset being created (set for the duration of one `create`).
    uint256 private _maxBalanceLimit;
    uint48 private _balanceLimitEnd;

    /// @dev A DevnetDopplerERC20V1 when the launch asks for a balance limit (its CREATE2 address then follows that
    /// bytecode), excluding the PoolManager, both hooks and the Airlock itself, as the real factory's exclusion list.
    function _createToken(string calldata name, string calldata symbol, bytes32 salt) internal override returns (address) {
        if (_maxBalanceLimit == 0 && _balanceLimitEnd == 0) return super._createToken(name, symbol, salt);
        DevnetDopplerERC20V1 token = new DevnetDopplerERC20V1{salt: salt}(name, symbol, TOKEN_SUPPLY, address(this));
        address[] memory excluded = new address[](3);
        excluded[0] = address(poolManager);
        excluded[1] = address(hook);
        excluded[2] = address(hookInitializer);
        token.initializeBalanceLimit(_maxBalanceLimit, _balanceLimitEnd, NO_OP_GOVERNANCE, excluded);
        return address(token);
    }

    function create(CreateParams calldata p) external returns (address asset) {
        (_maxBalanceLimit, _balanceLimitEnd) = (p.maxBalanceLimit, p.balanceLimitEnd);
        if (p.numeraire != pairedToken && p.numeraire != address(0)) revert UnsupportedNumeraire(p.numeraire);
        if (p.hookInitializer) asset = _launchWithHookInitializer(p);
        else (asset,) = _launchLinear(p.numeraire, p.name, p.symbol, p.salt, p.startFee, p.endFee, p.durationSeconds, TICK_SPACING, STARTING_TICK);
        address initializer = p.hookInitializer ? address(hookInitializer) : address(this);
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
        (_maxBalanceLimit, _balanceLimitEnd) = (0, 0);
        emit Create(asset, p.numeraire, initializer, asset);
    }

    function _launchWithHookInitializer(CreateParams calldata p) private returns (address asset) {
        asset = _createToken(p.name, p.symbol, p.salt);
        // DopplerHookInitializer._initialize: the dynamic-fee flag with a plugin, else the static LP fee.
        uint24 keyFee = p.dopplerHook != address(0) ? LPFeeLibrary.DYNAMIC_FEE_FLAG : p.lpFee;
        PoolKey memory key = _poolKeyWith(asset, p.numeraire, keyFee, TICK_SPACING, IHooks(address(hookInitializer)));
        // The pool first (the initializer can only set the LP fee of an initialised pool), then its fee and plugin,
        // then the liquidity.
        bool tokenIs0 = Currency.unwrap(key.currency0) == asset;
        poolManager.initialize(key, TickMath.getSqrtPriceAtTick(tokenIs0 ? STARTING_TICK : -STARTING_TICK));
        hookInitializer.initializePool(asset, p.numeraire, key, p.lpFee, p.dopplerHook, p.dopplerHookData);
        _addLiquidity(key, asset, TOKEN_SUPPLY, STARTING_TICK);
    }
}
