// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {DevnetLaunchpadBase} from "../DevnetLaunchpadBase.sol";
import {DevnetClankerDevBuy} from "./DevnetClankerDevBuy.sol";
import {DevnetLaunchToken} from "../DevnetLaunchToken.sol";
import {DevnetClankerHook} from "./DevnetClankerHook.sol";
import {DevnetClankerDynamicHook} from "./DevnetClankerDynamicHook.sol";
import {DevnetClankerSniperAuction} from "./DevnetClankerSniperAuction.sol";

/// @notice Devnet Clanker v4 factory: 100B-supply token, dynamic-fee v4 pool against WETH with DevnetClankerHook,
/// whole supply as single-sided liquidity, the MEV module (DevnetClankerSniperAuction) initialised with the descending
/// fee config once the liquidity is in (as the real factory's `initializeMevModule` step), and the real factory's
/// TokenCreated event (same signature), with the hook as `poolHook` and the module as `mevModule`. ETH sent with
/// `deployToken` is a dev buy: the DevBuy extension (created by this factory) buys with it after the liquidity is in and
/// before the MEV module starts, and is listed in `extensions` (clanker-devco/v4-contracts src/Clanker.sol runs the
/// extensions, then initializes the MEV module, then emits TokenCreated).
contract DevnetClankerFactory is DevnetLaunchpadBase {
    uint256 public constant TOKEN_SUPPLY = 100_000_000_000 ether;
    int24 public constant TICK_SPACING = 200;
    int24 public constant STARTING_TICK = -230_400; // ~1e-10 WETH per token: ~10 ETH FDV, like Clanker's default

    DevnetClankerHook public immutable hook;
    /// @notice The dynamic-fee hook a launch asks for with `dynamicFee` (Clanker's DynamicFeeV2 on Base).
    DevnetClankerDynamicHook public immutable dynamicHook;
    DevnetClankerSniperAuction public immutable mevModule;
    DevnetClankerDevBuy public immutable devBuy;
    uint24 public immutable defaultStartingFee;
    uint24 public immutable defaultEndingFee;
    uint256 public immutable defaultSecondsToDecay;
    uint24 public immutable defaultPairedFee;

    struct DeploymentConfig {
        string name;
        string symbol;
        address tokenAdmin;
        string image;
        string metadata;
        string context;
        // all three zero: use the factory defaults
        uint24 startingFee;
        uint24 endingFee;
        uint256 secondsToDecay;
        // CREATE2 salt of the token (real Clanker salts for vanity addresses; tests pick which side of WETH it sorts)
        bytes32 salt;
        // who receives the dev buy's tokens (used when ETH is sent)
        address devBuyRecipient;
        // the dynamic-fee hook with the SDK's Dynamic3 configuration instead of the static one
        bool dynamicFee;
    }

    event TokenCreated(
        address msgSender,
        address indexed tokenAddress,
        address indexed tokenAdmin,
        string tokenImage,
        string tokenName,
        string tokenSymbol,
        string tokenMetadata,
        string tokenContext,
        int24 startingTick,
        address poolHook,
        bytes32 poolId,
        address pairedToken,
        address locker,
        address mevModule,
        uint256 extensionsSupply,
        address[] extensions
    );

    constructor(
        IPoolManager poolManager_,
        address weth,
        DevnetClankerHook hook_,
        DevnetClankerDynamicHook dynamicHook_,
        DevnetClankerSniperAuction mevModule_,
        uint24 startingFee,
        uint24 endingFee,
        uint256 secondsToDecay,
        uint24 lpFee
    ) DevnetLaunchpadBase(poolManager_, weth) {
        hook = hook_;
        dynamicHook = dynamicHook_;
        mevModule = mevModule_;
        defaultStartingFee = startingFee;
        defaultEndingFee = endingFee;
        defaultSecondsToDecay = secondsToDecay;
        defaultPairedFee = lpFee;
        devBuy = new DevnetClankerDevBuy(poolManager_, weth);
    }

    function deployToken(DeploymentConfig calldata cfg) external payable returns (address tokenAddress) {
        DevnetLaunchToken token = new DevnetLaunchToken{salt: cfg.salt}(cfg.name, cfg.symbol, TOKEN_SUPPLY, address(this));
        tokenAddress = address(token);
        DevnetClankerHook poolHook = cfg.dynamicFee ? DevnetClankerHook(address(dynamicHook)) : hook;
        PoolKey memory key =
            _poolKeyFor(tokenAddress, LPFeeLibrary.DYNAMIC_FEE_FLAG, TICK_SPACING, IHooks(address(poolHook)));
        bool useDefaults = cfg.startingFee == 0 && cfg.endingFee == 0 && cfg.secondsToDecay == 0;
        poolHook.registerPool(key, tokenAddress, pairedToken, defaultPairedFee, address(mevModule));
        if (cfg.dynamicFee) dynamicHook.registerDynamicFee(key, _dynamic3());
        _launchPool(key, tokenAddress, TOKEN_SUPPLY, STARTING_TICK);
        address[] memory extensions = new address[](msg.value > 0 ? 1 : 0);
        if (msg.value > 0) {
            devBuy.receiveTokens{value: msg.value}(key, tokenAddress, cfg.devBuyRecipient);
            extensions[0] = address(devBuy);
        }
        poolHook.initializeMevModule(
            key,
            abi.encode(
                DevnetClankerSniperAuction.FeeConfig({
                    startingFee: useDefaults ? defaultStartingFee : cfg.startingFee,
                    endingFee: useDefaults ? defaultEndingFee : cfg.endingFee,
                    secondsToDecay: useDefaults ? defaultSecondsToDecay : cfg.secondsToDecay
                })
            )
        );
        emit TokenCreated(
            msg.sender,
            tokenAddress,
            cfg.tokenAdmin,
            cfg.image,
            cfg.name,
            cfg.symbol,
            cfg.metadata,
            cfg.context,
            STARTING_TICK,
            address(poolHook),
            PoolId.unwrap(key.toId()),
            pairedToken,
            address(this),
            address(mevModule),
            0,
            extensions
        );
    }

    /// @dev clanker-sdk's `Dynamic3` fee configuration (FEE_CONFIGS in its dist/index.js, bps converted to pips): 1% base,
    /// 3% maximum, 30 s reference filter, 2 min reset, 200-tick reset filter, numerator 2.5e8, 75% decay filter.
    function _dynamic3() private pure returns (DevnetClankerDynamicHook.PoolDynamicConfigVars memory) {
        return DevnetClankerDynamicHook.PoolDynamicConfigVars({
            baseFee: 10_000,
            maxLpFee: 30_000,
            referenceTickFilterPeriod: 30,
            resetPeriod: 120,
            resetTickFilter: 200,
            feeControlNumerator: 250_000_000,
            decayFilterBps: 7_500
        });
    }
}
